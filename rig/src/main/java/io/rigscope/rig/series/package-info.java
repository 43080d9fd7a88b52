/**
 * One series end to end: its definition ({@code SeriesPlan}, from {@code SeriesFile}; {@code SeriesPlan.Check}), the
 * runner (ladder, sustained repeats with reconciliation, ceiling, denominator, markers: {@code SeriesRunner}), the
 * analyzer following it ({@code LiveAnalysis}), the whole session ({@code SeriesSession}: collectors, analyzer,
 * runner, report), the SUT's warm-up, the waits' tally and the load's failure lines. Orchestration: may use
 * {@code bringup}, {@code cloud}, {@code denominator}, {@code export}, {@code plan}, {@code rds},
 * {@code reconciliation}, {@code options}. The runner runs on the command's thread; the analyzer and the collectors on
 * their own schedulers; {@code WaitsTally} and {@code FailureLines} are fed from those threads.
 */
package io.rigscope.rig.series;
