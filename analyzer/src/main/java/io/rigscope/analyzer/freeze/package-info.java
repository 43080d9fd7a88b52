/**
 * Freeze-seconds: the rule that marks a second frozen and the cadence of the telemetry around it. Uses config.
 * Threads: pure, run on the analysis thread.
 */
package io.rigscope.analyzer.freeze;
