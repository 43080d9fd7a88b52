package io.rigscope.rig.cli;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.rigscope.analyzer.api.Analyzer;
import io.rigscope.analyzer.decision.Decision;
import io.rigscope.analyzer.config.AnalyzerSetting;
import io.rigscope.analyzer.config.AnalyzerSettings;
import io.rigscope.analyzer.decision.GateResult;
import io.rigscope.importers.k6.K6Options;
import io.rigscope.analyzer.pipeline.AnalyzerInput;
import io.rigscope.analyzer.decision.RepeatSummary;
import io.rigscope.analyzer.report.ReportMaterial;
import io.rigscope.analyzer.series.Progress;
import io.rigscope.analyzer.decision.SeriesReport;
import io.rigscope.analyzer.threshold.Threshold;
import io.rigscope.analyzer.threshold.ThresholdParser;
import io.rigscope.analyzer.threshold.ThresholdParser.ThresholdSyntaxException;
import io.rigscope.localenv.kafka.KafkaEndpoint;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.model.wire.WireRecord;
import io.rigscope.rig.dashboard.Dashboard;
import io.rigscope.rig.export.ExportTargets;
import io.rigscope.rig.options.Durations;
import io.rigscope.rig.options.ExitCodes;
import io.rigscope.rig.options.KafkaOptions;
import io.rigscope.rig.options.KafkaOptions.JournaledPublisher;
import io.rigscope.rig.options.UsageException;
import io.rigscope.rig.series.LiveAnalysis;
import io.rigscope.wire.DeadLetterSink;
import io.rigscope.wire.WirePublisher;
import io.rigscope.wire.WireSource;
import io.rigscope.wire.kafka.TopicAdmin;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import reactor.core.publisher.Flux;

/**
 * {@code rigscope analyze --series ID}: follows a series live (or replays it) from its topics or a wire file,
 * publishes verdicts to rig.verdicts, writes the reports and exits 0 when every gate passed, 99 when any failed.
 */
@Command(name = "analyze", header = "Judge a series live or by replay: seconds, freeze-seconds, windows, gates, verdict.",
        mixinStandardHelpOptions = true,
        description = {"Judge a series: per-second statistics, freeze-seconds, windows, repeat gates and the series "
            + "verdict. Follows the series live until SERIES_END and every repeat's data are in (or --timeout); "
            + "--replay re-reads the topics from the beginning and stops at their end. Both reach the same report.",
            "Without --series it follows every series on the broker: analyzers started with the same --group share "
            + "the series, each analysed once (docs/operations.md), reports go to --report-dir; it runs until "
            + "Ctrl-C or --timeout.",
            "Exit 0 when every gate passed, 99 when any failed (or the series is UNRECONCILED)."})
final class AnalyzeCommand implements Callable<Integer> {

    @Mixin
    KafkaOptions kafka = new KafkaOptions();

    @Option(names = "--series", paramLabel = "ID",
            description = "The series id (the Kafka key). Without it: every series that starts on the broker.")
    String series;

    @Option(names = "--group", paramLabel = "ID", defaultValue = "rigscope-analyzers",
            description = "Without --series: the consumer group; analyzers in one group share the series "
                + "(default ${DEFAULT-VALUE}).")
    String group;

    @Option(names = "--from-earliest",
            description = "Without --series: a group with no committed offset starts with the archived series too "
                + "(default: only series that start from now on).")
    boolean fromEarliest;

    @Option(names = "--parallel", paramLabel = "N", defaultValue = "4",
            description = "Without --series: series analysed at once (default ${DEFAULT-VALUE}).")
    int parallel;

    @Option(names = "--report-dir", paramLabel = "DIR",
            description = "Without --series: write each series' report as DIR/<series>.json and DIR/<series>.md.")
    Path reportDir;

    @Option(names = "--replay", description = "Re-read the topics from the beginning and stop at their current end.")
    boolean replay;

    @Option(names = "--input", paramLabel = "FILE.jsonl",
            description = "Read a wire file (.jsonl or .jsonl.gz) instead of Kafka; implies --replay, publishes nothing.")
    Path input;

    @Option(names = "--report-json", paramLabel = "FILE", description = "Write the report as JSON.")
    Path reportJson;

    @Option(names = "--report-md", paramLabel = "FILE", description = "Write the report as Markdown.")
    Path reportMd;

    @Option(names = "--report-html", paramLabel = "FILE",
            description = "Write the report as one self-contained HTML page (charts, gates, episodes; opens offline).")
    Path reportHtml;

    @Option(names = "--hlog", paramLabel = "DIR",
            description = {"Write one HdrHistogram interval log per scenario here (SERIES.SCENARIO.hlog, 1-s intervals, "
                + "service time in µs: the analyzer's histograms), for HdrHistogram's log tools."})
    Path hlog;

    @Option(names = "--threshold", paramLabel = "'METRIC: EXPR'",
            description = {"A k6 threshold replacing the CONFIG marker's, e.g. 'http_req_duration: p(99)<500' or "
                + "'http_req_failed: rate<0.01'. Repeatable."})
    List<String> thresholds = new ArrayList<>();

    @Option(names = "--thresholds", paramLabel = "FILE",
            description = {"k6 thresholds replacing the CONFIG marker's: a k6 options file (JSON or YAML with a "
                + "'thresholds' object, as k6 inspect prints) or the thresholds object itself, abortOnFail and "
                + "delayAbortEval included (live, a failing one publishes an ABORT verdict that stops `generate`'s "
                + "repeat). --threshold flags are added to them."})
    Path thresholdsFile;

    @Option(names = "--set", paramLabel = "KEY=VALUE",
            description = "Override an analyzer setting (docs/gates.md), e.g. --set drift_bound=2. Repeatable.")
    Map<String, String> settings = new LinkedHashMap<>();

    @Option(names = "--publish", negatable = true,
            description = "Publish verdicts to rig.verdicts (default: when following live; not on --replay).")
    Boolean publish;

    @Option(names = "--timeout", paramLabel = "DURATION",
            description = "Stop following after this long and judge what arrived, e.g. 30m.")
    Duration timeout;

    @Option(names = "--quiet",
            description = "No live lines: following live, analyze otherwise prints what `run` prints as the "
                + "analyzer decides it (one line per closed second of the load, freeze-seconds, tail windows, "
                + "provisional and final episodes, each judged repeat); on --replay/--input, no progress line.")
    boolean quiet;

    @Mixin
    DashboardOptions dashboard = new DashboardOptions();

    @Mixin
    ExportOptions export = new ExportOptions();

    @Override
    public Integer call() {
        if (series == null) {
            return everySeries();
        }
        if (reportDir != null) {
            throw new UsageException("--report-dir is for every series (without --series); with one, use "
                    + "--report-json/--report-md/--report-html");
        }
        UnaryOperator<AnalyzerSettings> overrides = overrides();
        Duration stopAfter = Durations.positive("--timeout", timeout);
        WireCodec codec = new WireCodec();
        Dashboard.Options dashboardOptions = dashboard.options();
        SeriesOutputOptions.checkHlog(hlog);
        ExportTargets pushTo = export.targets(null);
        if (input != null && dashboardOptions != null) {
            throw new UsageException("--dashboard reads the broker, and --input publishes nothing: open the wire "
                    + "file's --report-html, or analyze the series from its topics");
        }
        if (input != null) {
            if (!Files.isRegularFile(input)) {
                throw new UsageException("--input " + input + " is not a readable file");
            }
            AtomicLong deadLetters = new AtomicLong();
            Flux<List<WireRecord>> records = AnalyzerInput.fromWireFile(input, codec, f -> {
                deadLetters.incrementAndGet();
                System.err.println("analyze: skipped " + f.deadLetter().origin() + ": " + f.deadLetter().reason());
            });
            int code = run(records, false, overrides, null, stopAfter, pushTo);
            if (deadLetters.get() > 0) {
                System.err.println("analyze: " + deadLetters.get() + " line(s) of " + input + " could not be decoded");
            }
            return code;
        }
        try (KafkaEndpoint endpoint = kafka.open();
             Dashboard board = dashboard.start(dashboardOptions, endpoint.clients(), codec, series, System.out);
             JournaledPublisher journaled = verdictJournal(endpoint, "analyze-" + series, codec)) {
            WirePublisher publisher = journaled.publisher();
            boolean doPublish = publish == null ? !replay : publish;
            WireSource source = new WireSource(endpoint.clients(), codec);
            // a series analysed before (live, or an earlier --replay) has its malformed records in rig.dlq already
            DeadLetterSink dlq = DeadLetterSink.once(publisher, source, series, Duration.ofSeconds(60));
            Flux<List<WireRecord>> records = AnalyzerInput.fromKafka(source, series, !replay, dlq);
            int code = run(records, !replay, overrides, doPublish ? publisher : null, stopAfter, pushTo);
            journaled.flush();
            if (dlq.count() > 0) {
                System.err.println("analyze: " + dlq.count() + " malformed record(s) of " + series + " to rig.dlq"
                        + (dlq.alreadySent() == 0 ? "" : ", " + dlq.alreadySent()
                        + " of them there already from an earlier analysis (not sent again)"));
            }
            if (journaled.failed()) {
                System.err.println(journaled.notPublishedLine());
                return ExitCodes.ERROR;
            }
            return code;
        }
    }

    /** Without --series: every series that starts, in the consumer group. Runs until Ctrl-C or --timeout. */
    private int everySeries() {
        if (export.targets(null).any()) {
            throw new UsageException("--prometheus-rw and --otlp need --series (it pushes one series' decisions)");
        }
        if (input != null || replay || reportJson != null || reportMd != null || reportHtml != null || hlog != null) {
            throw new UsageException("without --series, analyze follows every series live: --input, --replay, "
                    + "--hlog and --report-json/--report-md/--report-html need --series (use --report-dir)");
        }
        if (parallel < 1) {
            throw new UsageException("--parallel must be at least 1, was " + parallel);
        }
        if (group == null || group.isBlank()) {
            throw new UsageException("--group is blank: name the consumer group the analyzers share");
        }
        UnaryOperator<AnalyzerSettings> overrides = overrides();
        Duration stopAfter = Durations.positive("--timeout", timeout);
        WireCodec codec = new WireCodec();
        if (reportDir != null) {
            try {
                Files.createDirectories(reportDir);
            } catch (IOException e) {
                throw new UsageException("--report-dir " + reportDir + " cannot be created: " + e.getMessage());
            }
        }
        try (KafkaEndpoint endpoint = kafka.open();
             JournaledPublisher journaled = verdictJournal(endpoint, "analyze-group-" + group, codec)) {
            WirePublisher publisher = journaled.publisher();
            var every = new EverySeries(new EverySeries.Spec(endpoint.clients(), group, fromEarliest, parallel,
                    overrides, publish == null || publish), codec, publisher, System.out);
            Thread hook = new Thread(every::stop, "analyze-stop");
            Runtime.getRuntime().addShutdownHook(hook);
            System.out.println("analyze: following every series on " + endpoint.clients().bootstrap() + " in group "
                    + group + (stopAfter == null ? " until Ctrl-C" : " for " + Durations.text(stopAfter)));
            List<String> done = every.run(stopAfter, (id, report) -> {
                if (reportDir != null) {
                    String file = id.replaceAll("[^A-Za-z0-9._-]", "_");
                    ReportOutput.write(report, null, reportDir.resolve(file + ".json"),
                            reportDir.resolve(file + ".md"), null, null);
                }
                synchronized (System.out) {
                    printSummary(report);
                }
            });
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // Ctrl-C: the hook is running
            }
            journaled.flush();
            System.out.println("analyze: " + done.size() + " series analysed to the end");
            if (journaled.failed()) {
                System.err.println(journaled.notPublishedLine());
                return ExitCodes.ERROR;
            }
            return ExitCodes.OK;
        }
    }

    /**
     * The topics ensured, the journals an earlier command left published, then the analysis' own publisher (verdicts,
     * dead letters) through the write-ahead journal {@code name} in the data directory.
     */
    private JournaledPublisher verdictJournal(KafkaEndpoint endpoint, String name, WireCodec codec) {
        try (TopicAdmin admin = new TopicAdmin(endpoint.clients())) {
            admin.ensureTopics();
        }
        JournaledPublisher.Leftovers.publish(endpoint, kafka.journalDir(), System.err);
        return JournaledPublisher.open(endpoint.clients(), kafka.journalDir(), name, codec,
                WirePublisher.Options.defaults().withClientId("rigscope-analyzer"));
    }

    private int run(Flux<List<WireRecord>> records, boolean live, UnaryOperator<AnalyzerSettings> overrides,
                    WirePublisher publisher, Duration stopAfter, ExportTargets pushTo) {
        AtomicReference<Progress> progress = new AtomicReference<>();
        ScheduledExecutorService console = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "analyze-progress");
            t.setDaemon(true);
            return t;
        });
        // following live, the decisions' own lines (as `run` prints them) take the progress line's place
        boolean lines = live && !quiet;
        String probe = overrides.apply(AnalyzerSettings.defaults()).probeScenario();
        if (!quiet && !lines) {
            console.scheduleAtFixedRate(() -> {
                Progress p = progress.get();
                if (p != null) {
                    System.err.print("\ranalyze " + series + ": " + p.line() + "   ");
                }
            }, 1, 1, TimeUnit.SECONDS);
        }
        Flux<List<WireRecord>> bounded = stopAfter == null ? records : records.take(stopAfter);
        Analyzer analyzer = Analyzer.forSeries(series).withOverrides(overrides);
        Decision last;
        ReportMaterial kept = new ReportMaterial(series, reportHtml != null, hlog != null);
        Flux<List<WireRecord>> tapped = bounded.doOnNext(kept::records);
        ExportTargets.Sinks push = pushTo.open(System.out);
        try {
            Flux<Decision> decisions = analyzer.verdicts(tapped, live, progress::set, publisher);
            last = (push == null ? decisions : decisions.doOnNext(push))
                    .doOnNext(d -> {
                        kept.decision(d);
                        if (lines) {
                            String line = LiveAnalysis.line(d, probe);
                            if (line != null) {
                                System.out.println(line);
                            }
                        }
                    })
                    .blockLast();
        } finally {
            console.shutdownNow();
            if (push != null) {
                push.close();
            }
        }
        if (!quiet) {
            System.err.println("\ranalyze " + series + ": " + (progress.get() == null ? "" : progress.get().line()));
        }
        if (!(last instanceof Decision.Series s)) {
            throw new IllegalStateException("the analysis ended without a series verdict");
        }
        SeriesReport report = s.report();
        List<Path> logs = ReportOutput.write(report, kept, reportJson, reportMd, reportHtml, hlog);
        printSummary(report);
        logs.forEach(f -> System.out.println("  interval log: " + f));
        return report.allGatesPassed() ? ExitCodes.OK : ExitCodes.GATES_FAILED;
    }

    /** The report in a few lines: every figure is the report's, so the console and the files agree. */
    private static void printSummary(SeriesReport report) {
        System.out.println(report.series() + ": " + report.verdict() + " - " + report.headline());
        System.out.println("  freeze-seconds by cause: " + report.freezeSecondsByCauseLine());
        for (RepeatSummary r : report.repeats()) {
            List<GateResult> failed = r.failedGates();
            System.out.printf(Locale.ROOT,
                    "  rep %d %-9s %s  samples %d  p50 %s ms  p99 %s ms  drift %s  freeze-s %d  cadence %s s%s%n",
                    r.rep(), r.kind().code(), r.pass() ? "PASS" : "FAIL", r.samples(), r.p50Ms(), r.p99Ms(),
                    r.driftRounded(), r.freezeSeconds().size(),
                    r.cadence().dominantPeriodSec() == null ? "-" : r.cadence().dominantPeriodSec(),
                    (failed.isEmpty() ? "" : "  failed: " + String.join(", ",
                            failed.stream().map(GateResult::describe).toList()))
                            + (r.heldGatesWithReason().isEmpty() ? "" : "  held: " + String.join(", ",
                            r.heldGatesWithReason().stream().map(GateResult::describe).toList())));
            if (r.latenessMs() != null) {
                System.out.printf(Locale.ROOT, "    seconds closed by time, not by count (lateness %.0f ms): %d late "
                        + "sample(s), in no figure%n", r.latenessMs(), r.wireLateSamples());
            }
            if (r.aborted() != null) {
                System.out.println("    " + r.aborted().describe());
            }
            if (r.silence() != null) {
                System.out.println("    ended_by " + r.endedBy() + ": " + r.silence().describe());
                System.out.println("    " + r.silence().lossLine());
            }
        }
        report.episodes().forEach(e -> System.out.println(LiveAnalysis.episodeLine(e)));
        report.silentStreams().forEach((topic, sec) -> System.out.println("  stream " + topic + " silent since "
                + java.time.format.DateTimeFormatter.ofPattern("HH:mm:ss").withZone(java.time.ZoneOffset.UTC)
                        .format(java.time.Instant.ofEpochSecond(sec)) + " (it had been publishing)"));
        if (report.ceiling() != null) {
            System.out.printf(Locale.ROOT, "  ceiling %.0f events/s closed loop%s%n", report.ceiling().eventsPerSec(),
                    report.ceiling().ratio() == null ? "" : ", ratio " + report.ceiling().ratio()
                            + " of the database alone");
        }
    }

    /** The thresholds of {@code --thresholds FILE}, in the file's order; empty without the flag. */
    private List<Threshold> thresholdsFromFile() {
        if (thresholdsFile == null) {
            return List.of();
        }
        JsonNode root;
        try {
            root = new ObjectMapper(new YAMLFactory()).readTree(Files.readString(thresholdsFile));
        } catch (IOException e) {
            throw new UsageException("--thresholds " + thresholdsFile + ": cannot be read: " + e.getMessage());
        }
        // a k6 options document (K6Options: what `import k6 --options` reads), or the thresholds object alone
        JsonNode options = K6Options.thresholdsObject(root);
        JsonNode object = options != null ? options : root;
        if (object == null || !object.isObject() || object.isEmpty()) {
            throw new UsageException("--thresholds " + thresholdsFile + ": expected k6's thresholds object (metric -> "
                    + "[expressions]), alone, under 'thresholds' or under 'options.thresholds'");
        }
        Map<String, Object> map = new ObjectMapper().convertValue(object,
                new TypeReference<LinkedHashMap<String, Object>>() { });
        try {
            return ThresholdParser.parseAll(map);
        } catch (ThresholdSyntaxException e) {
            throw new UsageException("--thresholds " + thresholdsFile + ": " + e.getMessage());
        }
    }

    private UnaryOperator<AnalyzerSettings> overrides() {
        List<Threshold> parsed = new ArrayList<>(thresholdsFromFile());
        for (String t : thresholds) {
            try {
                parsed.add(ThresholdParser.parseFlag(t));
            } catch (ThresholdSyntaxException e) {
                throw new UsageException("--threshold: " + e.getMessage());
            }
        }
        Map<String, Object> set = new LinkedHashMap<>(settings);
        for (String key : set.keySet()) {
            if (java.util.Arrays.stream(AnalyzerSetting.values()).noneMatch(s -> s.key().equals(key))) {
                throw new UsageException("--set: unknown setting '" + key + "'; one of: " + String.join(", ",
                        java.util.Arrays.stream(AnalyzerSetting.values()).map(AnalyzerSetting::key).toList()));
            }
        }
        UnaryOperator<AnalyzerSettings> op = s -> {
            AnalyzerSettings out = set.isEmpty() ? s : s.withConfig(set);
            return parsed.isEmpty() ? out : out.withThresholds(parsed);
        };
        try {
            op.apply(AnalyzerSettings.defaults());
        } catch (IllegalArgumentException e) {
            throw new UsageException("--set: " + e.getMessage());
        }
        return op;
    }
}
