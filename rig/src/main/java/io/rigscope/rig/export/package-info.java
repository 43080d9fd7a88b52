/**
 * Pushing the analyzer's decisions into the operators' own tools: {@link io.rigscope.rig.export.RemoteWriteSink}
 * subscribes to the decision {@code Flux} (as every other view does, never inside the analyzer) and sends each
 * closed second, freeze-second, episode, repeat and series verdict to a Prometheus remote-write receiver (1.0
 * protobuf, snappy), latency as native histograms derived from the second's own HdrHistogram.
 *
 * <p>Threads: {@link io.rigscope.rig.export.RemoteWriteSink#accept} runs on the analyzer's thread and only converts
 * and enqueues (never blocks: a full buffer drops and counts); one daemon thread per sink sends. docs/export.md.
 *
 * <p>Orchestration: may use {@code options}; used by {@code series}, {@code collect} and {@code cli}.
 */
package io.rigscope.rig.export;
