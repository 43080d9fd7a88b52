/**
 * Freeze-seconds: the rule that marks a second frozen. The freeze-seconds' spacing ({@code RepeatSummary.Cadence}) is
 * a decision value. Uses config and decision. Threads: pure, run on the analysis thread.
 */
package io.rigscope.analyzer.freeze;
