/**
 * vmstat: runs it and parses each line. Uses the toolkit. Threads: a cold Flux reading the process' output on
 * Reactor's boundedElastic.
 */
package io.rigscope.collectors.vmstat;
