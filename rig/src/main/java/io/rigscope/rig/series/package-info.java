/**
 * One series end to end. Shows {@code SeriesSession} (collectors, analyzer, runner, report), its definition
 * ({@code SeriesPlan}, from {@code SeriesFile}; {@code SeriesPlan.Check} refuses a plan that cannot pass), the runner
 * (ladder, sustained repeats with reconciliation, ceiling, denominator, markers: {@code SeriesRunner}) and the analyzer
 * following it ({@code LiveAnalysis}, with the load's failure lines, {@code LiveAnalysis.FailureLines});
 * package-private: the waits' tally ({@code WaitsTally}). Orchestration: may use {@code bringup}, {@code cloud},
 * {@code denominator}, {@code export}, {@code plan}, {@code rds}, {@code reconciliation}, {@code options}. The runner
 * runs on the command's thread; the analyzer and the collectors on their own schedulers; {@code WaitsTally} and
 * {@code LiveAnalysis.FailureLines} are fed from those threads.
 */
package io.rigscope.rig.series;
