/**
 * The analyzer's benchmarks ({@code rigscope bench analyzer}, live and offline) and the synthetic series they feed.
 * Uses api, pipeline, series, decision; no other package uses it. Threads: run from a command's thread; the analysis
 * under test runs on its own thread.
 */
package io.rigscope.analyzer.bench;
