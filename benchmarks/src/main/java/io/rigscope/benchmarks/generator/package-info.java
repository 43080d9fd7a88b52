/**
 * The generator's benchmark ({@code rigscope bench generator}): the real generator against the local bench server
 * ({@link io.rigscope.generator.target.BenchServer}), wrk-like comparisons and timer jitter. Uses the generator's
 * engine, outbox, plan and target. Threads: run from a command's thread, with the server's own event loops
 * (rig-bench-srv).
 */
package io.rigscope.benchmarks.generator;
