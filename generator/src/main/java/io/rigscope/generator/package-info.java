/**
 * The generator's engine: a run ({@code Generator}, {@code GeneratorRun} on its thread rig-gen-run), each scenario's
 * lanes and open-loop ticker, the completion queue, sample batching and the run summary. Uses plan, schedule, body,
 * http, health and outbox; used by the benchmark and rig. Threads: each lane's schedule and requests run on its
 * client event loop (no hand-off); completions are drained by the sample batcher (rig-gen-batch); the run's own
 * thread starts and stops the lanes.
 */
package io.rigscope.generator;
