/**
 * Judges one repeat: its track of closed seconds, the gates (drift, thresholds, reconciliation, samples, k6), episodes
 * joined and attributed, windows, the summary and the abort rule. Uses attribution (through Attributor), scene,
 * episode, second, window, threshold, config, gate and json; used by series, decision and report. Threads: owned by
 * the analysis thread (one owner, not thread-safe); summaries are immutable.
 */
package io.rigscope.analyzer.repeat;
