/**
 * The wire records every module sends and reads (markers, samples, ledger, health, telemetry, verdicts). Uses topic
 * only. Threads: immutable values, any thread.
 */
package io.rigscope.model.wire;
