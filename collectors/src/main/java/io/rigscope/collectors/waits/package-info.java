/**
 * Active sessions by wait event, sampled from pg_stat_activity. Uses the toolkit and pg. Threads: a cold Flux polled
 * on Reactor's schedulers (blocking JDBC on boundedElastic).
 */
package io.rigscope.collectors.waits;
