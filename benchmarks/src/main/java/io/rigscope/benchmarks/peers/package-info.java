/**
 * The peer bench of {@code rigscope bench generator --vs-peers}: one bench server and each load tool in a JVM of
 * its own ({@link io.rigscope.localenv.childjvm.ChildJvm}) driven over a line protocol ({@code PeerBench},
 * {@code RigscopePeer}), CPU split and per-process CPU from {@code /proc}. The command passes in what belongs to
 * the rigscope command (the main classes its child JVMs run, rigscope's version). Uses the generator bench
 * ({@code benchmarks.generator}). The bench runs on the command's thread; each child's output is read on a thread of
 * its own.
 */
package io.rigscope.benchmarks.peers;
