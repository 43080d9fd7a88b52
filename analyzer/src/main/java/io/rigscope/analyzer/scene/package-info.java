/**
 * What a cause's rule and its lever look at for one episode: {@link io.rigscope.analyzer.scene.EpisodeScene} (the
 * episode, its seconds, the telemetry, the thresholds), the views over it they share
 * ({@link io.rigscope.analyzer.attribution.ServiceView}, {@link io.rigscope.analyzer.attribution.WaitProfile}), the series'
 * environment ({@link io.rigscope.analyzer.scene.LeverContext}) and the lever interface
 * ({@link io.rigscope.analyzer.attribution.LeverRule}); below both attribution and lever, so neither imports the other.
 * Threads: read-only values, built and read on the analysis thread when a repeat is judged.
 */
package io.rigscope.analyzer.scene;
