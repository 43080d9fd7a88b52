/**
 * OS and disk metrics from /proc, shaped like Enhanced Monitoring. Uses the toolkit. Threads: a cold Flux polled on
 * Reactor's schedulers once subscribed.
 */
package io.rigscope.collectors.os;
