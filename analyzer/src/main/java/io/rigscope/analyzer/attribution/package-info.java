/**
 * Names an episode's cause: one rule per cause, the controls, the table of causes ({@code CauseSpec}) and each cause's
 * lever (package-private), behind {@code Attributor}. Uses decision (the episode and its cause, evidence and lever), scene and telemetry; used
 * by repeat (through Attributor) and api. Threads: pure functions, run on the analysis thread when a repeat is judged.
 */
package io.rigscope.analyzer.attribution;
