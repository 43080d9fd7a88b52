/**
 * The analyzer's benchmarks ({@code rigscope bench analyzer}, live and offline), fed by the analyzer's synthetic series
 * ({@link io.rigscope.analyzer.synthetic.SyntheticSeries}). Uses the analyzer's api, pipeline, series, attribution,
 * decision and synthetic. Threads: run from a command's thread; the analysis under test runs on its own thread.
 */
package io.rigscope.benchmarks.analyzer;
