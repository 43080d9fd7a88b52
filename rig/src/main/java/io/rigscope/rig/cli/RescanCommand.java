package io.rigscope.rig.cli;

import io.rigscope.rig.options.ExitCodes;
import io.rigscope.rig.options.KafkaOptions;
import io.rigscope.rig.options.KafkaOptions.JournaledPublisher;
import io.rigscope.rig.options.UsageException;
import io.rigscope.wire.kafka.KafkaClients;
import io.rigscope.analyzer.api.Analyzer;
import io.rigscope.analyzer.decision.Decision;
import io.rigscope.analyzer.pipeline.AnalyzerInput;
import io.rigscope.analyzer.report.ReportMaterial;
import io.rigscope.analyzer.series.Progress;
import io.rigscope.analyzer.decision.SeriesReport;
import io.rigscope.localenv.kafka.KafkaEndpoint;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.importers.evidence.FileReading;
import io.rigscope.importers.evidence.Rescan;
import io.rigscope.rig.series.LiveAnalysis;
import io.rigscope.wire.WirePublisher;
import io.rigscope.wire.WireSource;
import io.rigscope.wire.kafka.TopicAdmin;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code rigscope rescan DIR...}: an evidence directory from an older rig, read by content, published to the topics
 * with its own timestamps and judged by the analyzer as if the series had run live (docs/rescan.md).
 */
@Command(name = "rescan", header = "Re-judge an evidence directory from an older rig with today's analyzer.",
        mixinStandardHelpOptions = true,
        description = {"Reads each DIR (one series each): k6 --out json (plain or gzip) and --out csv, vmstat -n -t, "
            + "RDS Enhanced Monitoring documents, Performance Insights GetResourceMetrics responses, "
            + "PostgreSQL stderr logs, CloudWatch GetMetricData responses, rigscope wire files and the DB "
            + "sampler's JSONL, all recognised by content, plus an optional manifest.json (repeats, what the "
            + "database gained, environment). Publishes every record to its topic under the series id, runs "
            + "the analyzer's replay and writes the report.",
            "Exit 0 PASS, 99 a gate failed or UNRECONCILED, 2 a bad flag or a directory with nothing "
            + "readable."})
final class RescanCommand implements Callable<Integer> {

    @Mixin
    KafkaOptions kafka = new KafkaOptions();

    @Parameters(arity = "1..*", paramLabel = "DIR", description = "Evidence directories, one series each.")
    List<Path> dirs = new ArrayList<>();

    @Option(names = "--series", paramLabel = "ID",
            description = {"The series id (one DIR only). Default: the manifest's, else the wire file's, else the "
            + "directory's name. It must not have records in Kafka yet."})
    String series;

    @Option(names = "--report-json", paramLabel = "FILE",
            description = "Write the report as JSON (several DIRs: FILE gets -SERIES before its extension).")
    Path reportJson;

    @Option(names = "--report-md", paramLabel = "FILE", description = "Write the report as Markdown (as --report-json).")
    Path reportMd;

    @Option(names = "--report-html", paramLabel = "FILE",
            description = "Write the report as one self-contained HTML page (as --report-json).")
    Path reportHtml;

    @Option(names = "--hlog", paramLabel = "DIR",
            description = "Write one HdrHistogram interval log per scenario here (SERIES.SCENARIO.hlog, 1-s intervals, µs).")
    Path hlog;

    @Option(names = "--pglog-prefix", paramLabel = "PREFIX",
            description = "The Postgres log's log_line_prefix, e.g. '%%m [%%p] ' (default: the default or RDS prefix).")
    String pglogPrefix;

    @Option(names = "--scenario-map", paramLabel = "K6=RIGSCOPE", split = ",",
            description = "Rename k6 scenarios, e.g. --scenario-map default=ingest.")
    Map<String, String> scenarioMap = new LinkedHashMap<>();

    @Option(names = "--quiet", description = "No live progress line.")
    boolean quiet;

    @Override
    public Integer call() {
        if (series != null && dirs.size() > 1) {
            throw new UsageException("--series names one series: give one DIR with it (got " + dirs.size() + ")");
        }
        for (Path d : dirs) {
            if (!Files.isDirectory(d)) {
                throw new UsageException("DIR " + d + " is not a directory");
            }
        }
        SeriesOutputOptions.checkHlog(hlog);
        if (series != null && series.isBlank()) {
            throw new UsageException("--series is blank");
        }
        WireCodec codec = new WireCodec();
        int worst = ExitCodes.OK;
        try (KafkaEndpoint endpoint = kafka.open(); TopicAdmin admin = new TopicAdmin(endpoint.clients())) {
            admin.ensureTopics();
            JournaledPublisher.Leftovers.publish(endpoint, kafka.journalDir(), System.err);
            for (Path dir : dirs) {
                int code = one(dir, endpoint.clients(), codec);
                worst = Math.max(worst, code);
            }
        }
        return worst;
    }

    private int one(Path dir, KafkaClients bootstrap, WireCodec codec) {
        Rescan rescan = new Rescan(new Rescan.Options(dir, series, pglogPrefix, scenarioMap));
        String id;
        try {
            id = rescan.series();
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + dir + ": " + e.getMessage(), e);
        }
        WireSource source = new WireSource(bootstrap, codec);
        if (source.seriesTaken(id, Duration.ofMinutes(2))) {
            throw new UsageException("series '" + id + "' already has records in Kafka (an earlier rescan, or the "
                    + "live run); pass --series with a new id");
        }
        Rescan.Result result;
        try (Ticker ticker = new Ticker(quiet, () -> "rescan " + dir.getFileName() + ": reading "
                + (rescan.current() == null ? "" : rescan.current().getFileName() + ", ")
                + String.format("%,d lines done", rescan.linesRead()));
             JournaledPublisher journaled = JournaledPublisher.open(bootstrap, kafka.journalDir(), "rescan-" + id,
                     codec, WirePublisher.Options.defaults().withClientId("rigscope-rescan"))) {
            WirePublisher publisher = journaled.publisher();
            try {
                result = rescan.read(publisher::publish);
            } catch (IllegalArgumentException e) {
                throw new UsageException(e.getMessage());
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + dir + ": " + e.getMessage(), e);
            }
            journaled.flush();
            if (journaled.failed()) {
                // the analysis would judge what is missing: the journal keeps it for 'rigscope recover'
                System.err.println(journaled.notPublishedLine());
                return ExitCodes.ERROR;
            }
        }
        System.out.println("rescan " + dir + " -> series " + id);
        for (FileReading f : result.files()) {
            System.out.println("  " + f.line());
        }
        result.notes().forEach(n -> System.out.println("  note: " + n));
        if (!result.anythingRead()) {
            throw new UsageException(dir + " holds nothing rescan can read: " + (result.files().isEmpty() ? "no files"
                    : String.join("; ", result.files().stream().map(FileReading::line).toList())));
        }
        System.out.println("  published " + result.recordsByTopic());

        AtomicReference<Progress> progress = new AtomicReference<>();
        AtomicLong deadLetters = new AtomicLong();
        Decision last;
        ReportMaterial kept = new ReportMaterial(id, reportHtml != null, hlog != null);
        try (Ticker ticker = new Ticker(quiet, () -> "rescan " + id + ": analyzing, "
                + (progress.get() == null ? "starting" : progress.get().line()))) {
            last = Analyzer.forSeries(id)
                    .replay(AnalyzerInput.fromKafka(source, id, false, f -> deadLetters.incrementAndGet())
                                    .doOnNext(kept::records), progress::set)
                    .doOnNext(kept::decision)
                    .blockLast();
        }
        if (!(last instanceof Decision.Series s)) {
            throw new IllegalStateException("the analysis ended without a series verdict");
        }
        SeriesReport report = s.report();
        if (deadLetters.get() > 0) {
            System.out.println("  " + deadLetters.get() + " record(s) could not be decoded back from Kafka");
        }
        List<Path> logs = ReportOutput.write(report, kept, named(reportJson, id), named(reportMd, id),
                named(reportHtml, id), hlog);
        logs.forEach(f -> System.out.println("  interval log: " + f));
        System.out.println(report.series() + ": " + report.verdict() + " - " + report.headline());
        System.out.println("  reconciliation: " + report.reconciliation());
        System.out.println("  freeze-seconds by cause: " + report.freezeSecondsByCauseLine());
        report.episodes().forEach(e -> System.out.println(LiveAnalysis.episodeLine(e)
                + (e.missing().isEmpty() ? "" : " [missing: " + String.join(", ", e.missing()) + "]")));
        return report.allGatesPassed() ? ExitCodes.OK : ExitCodes.GATES_FAILED;
    }

    /** The report file for a series: as given with one DIR, with {@code -SERIES} before the extension with several. */
    private Path named(Path file, String id) {
        if (file == null || dirs.size() == 1) {
            return file;
        }
        String name = file.getFileName().toString();
        int dot = name.lastIndexOf('.');
        String renamed = dot > 0 ? name.substring(0, dot) + "-" + id + name.substring(dot) : name + "-" + id;
        return file.resolveSibling(renamed);
    }

    /** A live line on stderr once a second while long work runs. */
    private static final class Ticker implements AutoCloseable {
        private final ScheduledExecutorService timer;
        private final boolean quiet;
        private final Supplier<String> line;

        Ticker(boolean quiet, Supplier<String> line) {
            this.quiet = quiet;
            this.line = line;
            this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "rescan-progress");
                t.setDaemon(true);
                return t;
            });
            if (!quiet) {
                timer.scheduleAtFixedRate(() -> System.err.print("\r" + line.get() + "   "), 1, 1, TimeUnit.SECONDS);
            }
        }

        @Override
        public void close() {
            timer.shutdownNow();
            if (!quiet) {
                System.err.println("\r" + line.get() + "   ");
            }
        }
    }
}
