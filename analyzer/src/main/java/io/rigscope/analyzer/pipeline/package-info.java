/**
 * The analyzer as a Reactor pipeline: input batches in, one series analysis on its own thread, decisions out. Uses
 * series, decision and config; used by api and the benchmark. Threads: each subscription starts its own analysis
 * thread; input arrives on the caller's thread.
 */
package io.rigscope.analyzer.pipeline;
