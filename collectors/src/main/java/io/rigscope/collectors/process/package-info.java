/**
 * The service's process per second: CPU, RSS, threads, run-queue wait, stops and JVM pauses (hsperfdata). Uses the
 * toolkit and model.proc. Threads: one reader per process, polled on Reactor's schedulers.
 */
package io.rigscope.collectors.process;
