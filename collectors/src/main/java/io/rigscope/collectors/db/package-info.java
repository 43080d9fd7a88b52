/**
 * The DB sampler: WAL, checkpoints, WAL files, vacuum progress and table stats from Postgres' views. Uses the toolkit
 * and pg. Threads: a cold Flux polled on Reactor's schedulers (blocking JDBC on boundedElastic).
 */
package io.rigscope.collectors.db;
