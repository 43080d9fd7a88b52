/**
 * The peer bench of {@code rigscope bench generator --vs-peers}: one bench server and each load tool in a JVM of
 * its own driven over a line protocol ({@code PeerBench}, {@code ChildJvm}, {@code RigscopePeer}), CPU split and
 * per-process CPU from {@code /proc}. Orchestration: may use {@code environment}, {@code options}; names {@code Main}
 * as a child JVM's main class (frozen). The bench runs on the command's thread; each child's output is read on a
 * thread of its own.
 */
package io.rigscope.rig.bench;
