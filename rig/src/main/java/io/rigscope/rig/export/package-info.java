/**
 * Pushing the analyzer's decisions into the operators' own tools. Shows {@code ExportTargets}: what {@code
 * --prometheus-rw} and {@code --otlp} asked for ({@code ExportTargets.RemoteWrite}, {@code ExportTargets.Otlp}), the
 * sinks it opens, and {@code ExportTargets.AnalyzedPush} ({@code collect k6}'s in-memory analysis); the sinks
 * themselves are package-private: {@code RemoteWriteSink} subscribes to the decision {@code Flux} (as every other view
 * does, never inside the analyzer) and sends each closed second, freeze-second, episode, repeat and series verdict to a
 * Prometheus remote-write receiver (1.0 protobuf, snappy), latency as native histograms derived from the second's own
 * HdrHistogram; {@code OtlpSink} sends to OTLP/HTTP.
 *
 * <p>Threads: a sink's {@code accept} runs on the analyzer's thread and only converts and enqueues (never blocks: a
 * full buffer drops and counts); one daemon thread per sink sends. docs/export.md.
 *
 * <p>Orchestration: may use {@code options}; used by {@code series}, {@code collect} and {@code cli}.
 */
package io.rigscope.rig.export;
