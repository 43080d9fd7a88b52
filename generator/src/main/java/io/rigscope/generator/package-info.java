/**
 * The generator's engine: the open-loop schedule ticking (rig-gen-run), scenario runs, the completion queue, sample
 * batching (rig-gen-batch) and the run summary. Uses plan, schedule, body, http, health and outbox; used by the
 * benchmark and rig. Threads: the scheduler thread fires requests onto the client loops, completions arrive on them,
 * the batcher drains them on its own thread.
 */
package io.rigscope.generator;
