/**
 * The live dashboard on Reactor Netty ({@code Dashboard}: index, series pages fed by server-sent events,
 * {@code /metrics} as {@code PrometheusText}), from what the broker holds ({@code SeriesIndex}: markers and verdicts,
 * never recomputed). Orchestration: may use {@code options}. Pages are served on Reactor Netty's event loops, the
 * broker is read on {@code WireSource}'s own threads (never an event loop); {@code SeriesIndex}: one thread accepts,
 * any thread reads.
 */
package io.rigscope.rig.dashboard;
