/**
 * RDS telemetry: CloudWatch, Enhanced Monitoring, Performance Insights and the RDS log files. Uses the toolkit and
 * pglog's parser. Threads: cold Fluxes polled on Reactor's schedulers once subscribed.
 */
package io.rigscope.collectors.aws;
