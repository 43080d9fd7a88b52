/**
 * What a cause's rule and its lever read for one episode: {@code EpisodeScene} (the episode, its seconds, the
 * telemetry, the thresholds) and the series' environment ({@code LeverContext}). Uses decision, second, telemetry
 * and config; used by attribution and repeat. Threads: read-only values, built and read on the analysis thread
 * when a repeat is judged.
 */
package io.rigscope.analyzer.scene;
