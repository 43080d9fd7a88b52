/**
 * The generator's benchmark ({@code rigscope bench generator}): a local HTTP server, wrk-like comparisons, thread CPU
 * and timer jitter. Uses the engine, outbox and plan; no other generator package uses it. Threads: run from a
 * command's thread, with its own server event loops (rig-bench-srv).
 */
package io.rigscope.generator.bench;
