/**
 * Comparing two series (before/after): per-second figures, the exact permutation test and the p99 ties. Uses second.
 * Threads: pure, run on the caller's thread (the compare command).
 */
package io.rigscope.analyzer.compare;
