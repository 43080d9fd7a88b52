/**
 * Judges one repeat: its track of closed seconds, the gates (drift, thresholds, reconciliation, samples, k6), episodes
 * joined and attributed, windows, the summary ({@code RepeatSummary}, a decision value it fills) and the abort rule
 * ({@code RepeatJudge.AbortOnFail}). Uses attribution (through Attributor), scene, second, telemetry, threshold,
 * config and decision; used by series and api. Threads: owned by
 * the analysis thread (one owner, not thread-safe); summaries are immutable.
 */
package io.rigscope.analyzer.repeat;
