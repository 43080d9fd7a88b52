/**
 * The telemetry a series delivered (vmstat, OS, waits, DB, Postgres log, canary, process), indexed by stream and
 * second for attribution. Uses no other analyzer package. Threads: the analysis thread owns it.
 */
package io.rigscope.analyzer.telemetry;
