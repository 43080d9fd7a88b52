package io.rigscope.rig.selftest;

import java.util.Arrays;

/**
 * The analyzer-restart guarantee, read from a {@link FaultSeries}: {@code rigscope analyze} following the series
 * in a child JVM was killed with SIGKILL in the middle of repeat 2 and started again; the restarted analyzer's report
 * file is byte-identical to the uninterrupted live analyzer's.
 *
 * <p>How: a restarted analyzer recomputes from the topics' start; it commits no offsets and keeps no state. Every
 * topic keeps its records ({@code retention.ms=-1}) and the analysis is a pure function of the series' records,
 * so recomputing gives the same report by construction, at the cost of one re-read of the series; resuming from committed offsets would also need a snapshot of every open second's
 * histograms and the telemetry index consistent with those offsets, a second source of truth to get wrong. What a
 * kill leaves behind: the verdicts a killed analyzer had published stay on {@code rig.verdicts} and the restarted
 * one publishes them again (the dashboard de-duplicates; a consumer counting verdicts sees them twice). The
 * children here run with {@code --no-publish}.
 *
 * @param killExit the killed child's exit code (137: SIGKILL)
 * @param restartedExit the restarted child's exit code (0 pass, 99 a gate failed)
 * @param identical the restarted analyzer's report file equals the live analyzer's report byte for byte
 * @param reportBytes the report's size
 */
record AnalyzerRestart(int killExit, int restartedExit, boolean identical, int reportBytes) {

    /** Reads the guarantee's figures from the series. */
    static AnalyzerRestart of(FaultSeries.Outcome o) {
        byte[] live = o.liveReportJson();
        byte[] restarted = o.restartedReport();
        return new AnalyzerRestart(o.analyzerKillExit(), o.restartedExit(),
                restarted != null && Arrays.equals(restarted, live), live.length);
    }

    /** The kill was a kill, the restarted analyzer finished and wrote the same report. */
    public boolean holds() {
        return killExit == 137 && (restartedExit == 0 || restartedExit == 99) && identical;
    }
}
