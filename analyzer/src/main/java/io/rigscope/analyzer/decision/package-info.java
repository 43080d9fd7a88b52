/**
 * The analyzer's output as typed values: {@link io.rigscope.analyzer.decision.Decision} (sealed, one record per
 * verdict kind), {@link io.rigscope.analyzer.decision.DecisionCodec} (the one place decisions become JSON) and
 * {@link io.rigscope.analyzer.json.WireView} (the Jackson view of the wire records). Threads: immutable values,
 * made on the analysis thread and read by any subscriber's thread; the codec is thread-safe.
 */
package io.rigscope.analyzer.decision;
