/**
 * Active sessions by wait event, sampled from pg_stat_activity. Uses the toolkit and pg. Threads: a cold Flux ticking
 * on Reactor's parallel scheduler, its queries on R2DBC's non-blocking connections.
 */
package io.rigscope.collectors.waits;
