/**
 * The DB sampler: WAL, checkpoints, WAL files, vacuum progress and table stats from Postgres' views. Uses the toolkit
 * and pg. Threads: a cold Flux ticking on Reactor's parallel scheduler, its queries on R2DBC's non-blocking
 * connections.
 */
package io.rigscope.collectors.db;
