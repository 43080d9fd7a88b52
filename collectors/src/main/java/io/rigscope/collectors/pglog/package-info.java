/**
 * Postgres' log: tailing the file, parsing its line prefix and classifying events (checkpoints, autovacuum, lock
 * waits). Uses the toolkit. Threads: parsing is stateless; tailing blocks, on Reactor's boundedElastic.
 */
package io.rigscope.collectors.pglog;
