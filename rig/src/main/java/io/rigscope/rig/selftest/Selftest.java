package io.rigscope.rig.selftest;

import io.rigscope.analyzer.pipeline.AnalyzerInput;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * {@code rigscope selftest}: the rig's own guarantees on the machine at hand, each with its figure: a broker
 * restarted mid-repeat ({@link BrokerRestart}), an analyzer killed mid-series ({@link AnalyzerRestart}),
 * PostgreSQL restarted mid-run ({@link PgRestart}), all three in one {@link FaultSeries}, then 10,000 malformed
 * records on the same broker ({@link MalformedRecords}), then a generator killed mid-repeat ({@link GeneratorKill}),
 * then two commands sharing one detached broker that is killed under the second ({@link SharedBroker}), then two
 * {@code demo --quick} side by side on one data directory, both reconciled ({@link DemoPair}).
 */
public final class Selftest {

    /** Malformed values planted. */
    public static final int MALFORMED = 10_000;

    /**
     * The outcome: one line per guarantee and the figures.
     *
     * @param lines one line per guarantee, with its figure and {@code ok} or {@code FAILED}
     * @param figures the figures by name (what {@code --json} prints)
     * @param ok every guarantee held
     */
    public record Result(List<String> lines, Map<String, Object> figures, boolean ok) {
        public Result {
            lines = List.copyOf(lines);
            figures = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(figures));
        }
    }

    private final Path workDir;
    private final PrintStream progress;

    /**
     * @param workDir where the broker's data, the wire file and the child analyzers' files go
     * @param progress one line per step
     */
    public Selftest(Path workDir, PrintStream progress) {
        this.workDir = Objects.requireNonNull(workDir, "workDir");
        this.progress = Objects.requireNonNull(progress, "progress");
    }

    /** Runs every scenario; blocking, a few minutes. */
    public Result run() {
        progress.println("selftest: one series with three faults (broker, analyzer, PostgreSQL), about 80 s");
        try (FaultSeries.Outcome o = new FaultSeries(workDir, progress).run()) {
            progress.println("selftest: reading the broker-restart figures");
            BrokerRestart broker = BrokerRestart.of(o);
            AnalyzerRestart analyzer = AnalyzerRestart.of(o);
            progress.println("selftest: reading the PostgreSQL-restart figures");
            PgRestart pg = PgRestart.of(o);
            progress.printf("selftest: %,d malformed records over %d topics%n", MALFORMED, AnalyzerInput.TOPICS.size());
            MalformedRecords.Result bad = new MalformedRecords(o.bootstrap())
                    .run(o.series() + "-malformed-" + Clock.systemUTC().millis(), MALFORMED);

            progress.println("selftest: a generator killed mid-repeat (SIGKILL), about 30 s");
            GeneratorKill killed = GeneratorKill.run(o.bootstrap(), o.series() + "-generator-killed", workDir,
                    progress);
            progress.println("selftest: two commands on one detached broker, the broker killed (SIGKILL) under the "
                    + "second, about 40 s");
            SharedBroker shared = SharedBroker.run(o.series() + "-shared", workDir, progress);
            progress.println("selftest: two demo --quick side by side on one data directory, the second outliving "
                    + "the first, about 3 min");
            DemoPair demos = DemoPair.run(o.series() + "-demo", workDir, progress);
            Map<String, Object> f = new LinkedHashMap<>();
            f.put("series", o.series());
            f.put("broker_restart_down_s", round(broker.downSec()));
            f.put("broker_restart_samples", broker.samplesReceived());
            f.put("broker_restart_ledger_sent", broker.ledgerSent());
            f.put("broker_restart_lost", broker.lost());
            f.put("broker_restart_spooled", broker.spooled());
            f.put("broker_restart_topics_equal_produced", broker.onTopics().equals(broker.produced()));
            f.put("broker_restart_report_identical", broker.reportFromTopicsIdentical() && broker.liveReportIdentical());
            f.put("analyzer_restart_kill_exit", analyzer.killExit());
            f.put("analyzer_restart_identical", analyzer.identical());
            f.put("malformed_planted", bad.planted());
            f.put("malformed_in_dlq", bad.inDlq());
            f.put("malformed_with_origin", bad.withOrigin());
            f.put("malformed_crashes", bad.crashes());
            f.put("malformed_report_identical", bad.reportIdentical());
            f.put("pg_restart_down_s", round(pg.downSec()));
            f.put("pg_restart_reconnect_s", round(pg.reconnectSec()));
            f.put("pg_restart_sut_reconnect_s", round(pg.sutReconnectSec()));
            pg.collectorReconnectSec().forEach((k, v) -> f.put("pg_restart_" + k.replace("rig.", "") + "_reconnect_s",
                    round(v)));
            f.put("pg_restart_gap_markers", pg.gapSpans().values().stream().allMatch(b -> b));
            f.put("pg_restart_missing", pg.missingOverOutage());
            f.put("pg_restart_episodes", pg.episodesOverOutage().size());
            f.put("generator_kill_exit", killed.killExit());
            f.put("generator_kill_judged_after_s", round(killed.judgedAfterSec()));
            f.put("generator_kill_grace_s", killed.graceSec());
            f.put("generator_kill_ended_by", killed.endedBy());
            f.put("generator_kill_passed", killed.passed());
            f.put("generator_kill_silence", killed.silence());
            f.put("generator_kill_report_identical", killed.identical());
            f.put("shared_broker_exits", List.of(shared.exitA(), shared.exitB()));
            f.put("shared_broker_same_broker", shared.sameBroker());
            f.put("broker_kill_restarted", shared.restarted());
            f.put("broker_kill_restart_s", round(shared.restartSec()));
            f.put("broker_kill_ledger_sent", shared.sentB());
            f.put("broker_kill_samples", shared.samplesB());
            f.put("broker_kill_lost", shared.sentB() - shared.samplesB());
            f.put("shared_broker_first_lost", shared.sentA() - shared.samplesA());
            f.put("shared_broker_stack_traces", shared.stackTraces());
            f.put("demo_pair_exits", List.of(demos.exitA(), demos.exitB()));
            f.put("demo_pair_second_outlived_first", demos.bOutlivedA());
            f.put("demo_pair_same_broker", demos.sameBroker());
            f.put("demo_pair_reports_written", demos.reportsWritten());
            f.put("demo_pair_repeats", List.of(demos.repeatsA(), demos.repeatsB()));
            f.put("demo_pair_reconciled", List.of(demos.reconciledA(), demos.reconciledB()));
            f.put("demo_pair_lost", List.of(demos.lostA(), demos.lostB()));
            f.put("demo_pair_stack_traces", demos.stackTraces());
            boolean ok = broker.holds() && analyzer.holds() && pg.holds() && bad.holds() && killed.holds()
                    && shared.holds() && demos.holds();
            f.put("ok", ok);

            List<String> lines = List.of(
                    line("broker restart", broker.holds(), String.format(Locale.ROOT,
                            "down %.1f s mid-repeat: %,d samples received, %,d sent by the ledger, %d lost; every "
                                    + "topic holds what was produced (%d spooled); report %s",
                            broker.downSec(), broker.samplesReceived(), broker.ledgerSent(), broker.lost(),
                            broker.spooled(), broker.reportFromTopicsIdentical() && broker.liveReportIdentical()
                                    ? "identical" : "DIFFERENT")),
                    line("analyzer restart", analyzer.holds(), String.format(Locale.ROOT,
                            "killed mid-series (exit %d), restarted (recomputes from the topics' start): report "
                                    + "%s (%,d bytes)", analyzer.killExit(),
                            analyzer.identical() ? "byte-identical" : "DIFFERENT", analyzer.reportBytes())),
                    line("malformed records", bad.holds(), String.format(Locale.ROOT,
                            "%,d over %d topics: %,d in rig.dlq (%,d with origin and reason), %d crashes, verdict "
                                    + "%s, report %s", bad.planted(), bad.perTopic().size(), bad.inDlq(),
                            Math.min(bad.withOrigin(), bad.withReason()), bad.crashes(), bad.verdict(),
                            bad.reportIdentical() ? "unchanged" : "CHANGED")),
                    line("pg restart", pg.holds(), String.format(Locale.ROOT,
                            "down %.1f s: SUT %.1f s, %s to reconnect (limit %.0f s); gap markers %s; missing over "
                                    + "it: %s (%d episode(s) over it)", pg.downSec(), pg.sutReconnectSec(),
                            collectors(pg), PgRestart.RECONNECT_LIMIT_SEC,
                            pg.gapSpans().values().stream().allMatch(b -> b) ? "span it" : "DO NOT span it",
                            pg.missingOverOutage().isEmpty() ? "none" : String.join(", ", pg.missingOverOutage()),
                            pg.episodesOverOutage().size())),
                    line("generator killed", killed.holds(), String.format(Locale.ROOT,
                            "SIGKILL mid-repeat (exit %d): judged %.1f s after the kill (grace %d s), ended_by %s, %s; "
                                    + "%s; replay report %s (%,d bytes)", killed.killExit(), killed.judgedAfterSec(),
                            killed.graceSec(), killed.endedBy(), killed.passed() ? "PASS" : "FAIL", killed.silence(),
                            killed.identical() ? "byte-identical" : "DIFFERENT", killed.reportBytes())),
                    line("shared broker", shared.holds(), String.format(Locale.ROOT,
                            "two generate commands on one detached broker: the first ended (exit %d), the second "
                                    + "(exit %d) %s it; broker killed (SIGKILL) under the second: %s after %.1f s, "
                                    + "%,d samples received of %,d sent by the ledger (%d lost; first command %d "
                                    + "lost); %d + %d repeat(s) in the reports; %d stack-trace line(s)",
                            shared.exitA(), shared.exitB(), shared.sameBroker() ? "kept using" : "DID NOT SHARE",
                            shared.restarted() ? "restarted" : "NOT RESTARTED", shared.restartSec(),
                            shared.samplesB(), shared.sentB(), shared.sentB() - shared.samplesB(),
                            shared.sentA() - shared.samplesA(), shared.repeatsA(), shared.repeatsB(),
                            shared.stackTraces())),
                    line("two demos", demos.holds(), String.format(Locale.ROOT,
                            "two demo --quick on one data directory: exits %d and %d, the second %s the first on %s; "
                                    + "reports %s; repeats reconciled %d of %d and %d of %d; %d + %d sample(s) lost; "
                                    + "%d stack-trace line(s)", demos.exitA(), demos.exitB(),
                            demos.bOutlivedA() ? "outlived" : "DID NOT OUTLIVE",
                            demos.sameBroker() ? "its broker" : "ANOTHER BROKER",
                            demos.reportsWritten() ? "written" : "MISSING", demos.reconciledA(), demos.repeatsA(),
                            demos.reconciledB(), demos.repeatsB(), demos.lostA(), demos.lostB(),
                            demos.stackTraces())));
            return new Result(lines, f, ok);
        }
    }

    private static String collectors(PgRestart pg) {
        StringBuilder out = new StringBuilder();
        pg.collectorReconnectSec().forEach((k, v) -> out.append(out.length() == 0 ? "" : ", ")
                .append(String.format(Locale.ROOT, "%s %.1f s", k, v)));
        return out.toString();
    }

    private static String line(String name, boolean ok, String figure) {
        return String.format(Locale.ROOT, "%-18s %s  %s", name, figure, ok ? "ok" : "FAILED");
    }

    private static double round(double v) {
        return Double.isFinite(v) ? Math.round(v * 10) / 10.0 : -1;
    }
}
