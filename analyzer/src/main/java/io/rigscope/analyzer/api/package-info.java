/**
 * The analyzer's face for commands: {@code Analyzer} turns a series' records into decisions and reports. Uses the live
 * path (pipeline, series), decision, config and attribution; used by rig, importers and the benchmark. Threads: a
 * caller's thread starts it; the analysis runs on the pipeline's own thread.
 */
package io.rigscope.analyzer.api;
