/**
 * The analyzer's output values, and the bottom package: {@link io.rigscope.analyzer.decision.Decision} (sealed, one
 * record per verdict kind, with the server-timing figures a second carries), {@link
 * io.rigscope.analyzer.decision.SeriesReport} and its {@link io.rigscope.analyzer.decision.SeriesReport.SeriesVerdict},
 * the records a decision carries ({@code RepeatSummary} with its {@code Kind}, {@code Cadence} and {@code Silence},
 * {@code Abort}, {@code GateResult}, {@code Window}, {@code Episode} with its {@code Cause}, {@code Evidence} and
 * {@code Lever}, {@code Ceiling}, {@code SecondStats} with its {@code SecondLedger}, {@code SecondHistogram},
 * {@code SecondClosing}), {@link io.rigscope.analyzer.decision.DecisionCodec} (the one place decisions become JSON)
 * and {@link io.rigscope.analyzer.decision.WireView}, the JSON view every analyzer record writes itself with. The
 * judges (repeat, attribution, second, freeze, series) compute these values; rig, the importers and the reports read
 * them. Uses no other analyzer package: only the model (and Jackson, HdrHistogram). Threads: immutable values, made
 * on the analysis thread and read by any subscriber's thread; the codec is thread-safe.
 */
package io.rigscope.analyzer.decision;
