/**
 * The analyzer's output as typed values: {@link io.rigscope.analyzer.decision.Decision} (sealed, one record per
 * verdict kind), {@link io.rigscope.analyzer.decision.SeriesReport} and its
 * {@link io.rigscope.analyzer.decision.SeriesReport.SeriesVerdict}, and
 * {@link io.rigscope.analyzer.decision.DecisionCodec} (the one place decisions become JSON, through
 * {@link io.rigscope.analyzer.decision.WireView}). A face: rig and the importers read it. Uses the judges' values (repeat,
 * episode, window, ceiling, second, gate) and json. Threads: immutable values, made on the analysis thread and read by
 * any subscriber's thread; the codec is thread-safe.
 */
package io.rigscope.analyzer.decision;
