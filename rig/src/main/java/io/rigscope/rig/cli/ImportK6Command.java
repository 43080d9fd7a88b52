package io.rigscope.rig.cli;

import io.rigscope.analyzer.threshold.ThresholdDecl;
import io.rigscope.importers.k6.K6Import;
import io.rigscope.importers.k6.K6Options;
import io.rigscope.importers.k6.K6Summary;
import io.rigscope.analyzer.threshold.K6Verdict;
import io.rigscope.localenv.kafka.KafkaEndpoint;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.rig.options.ExitCodes;
import io.rigscope.rig.options.KafkaOptions;
import io.rigscope.rig.options.KafkaOptions.JournaledPublisher;
import io.rigscope.rig.options.UsageException;
import io.rigscope.wire.WirePublisher;
import io.rigscope.wire.kafka.TopicAdmin;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code rigscope import k6 FILE --series ID}: a k6 --out json file as samples, ledger and markers. */
@Command(name = "k6", mixinStandardHelpOptions = true,
        description = {"Publish a k6 --out json file (JSON lines, .gz accepted) as one repeat of a series: each "
            + "http_req_duration point becomes a sample cut by its time (the response's end), dropped_iterations "
            + "go to the ledger, thresholds to the CONFIG marker. Then run 'rigscope analyze --series ID --replay'."})
final class ImportK6Command implements Callable<Integer> {

    @Mixin
    KafkaOptions kafka = new KafkaOptions();

    @Parameters(index = "0", paramLabel = "FILE", description = "k6 output: k6 run --out json=FILE (or FILE.gz).")
    Path file;

    @Option(names = "--series", required = true, paramLabel = "ID", description = "The series id to publish under.")
    String series;

    @Option(names = "--rep", paramLabel = "N", description = "The repeat number this file is (default 1).")
    int rep = 1;

    @Option(names = "--scenario-map", paramLabel = "K6=RIGSCOPE", split = ",",
            description = "Rename k6 scenarios, e.g. --scenario-map read=probe,default=ingest.")
    Map<String, String> scenarioMap = new LinkedHashMap<>();

    @Option(names = "--generator", paramLabel = "ID", description = "The src of the samples (default k6).")
    String generator = "k6";

    @Option(names = "--no-reconciliation",
            description = {"Tell the analyzer not to require a RECONCILIATION marker (a k6 file holds no database "
                + "count); without it the series is UNRECONCILED unless one is published."})
    boolean noReconciliation;

    @Option(names = "--no-series-markers",
            description = "Publish no SERIES_START/SERIES_END (when importing several files as repeats of one series).")
    boolean noSeriesMarkers;

    @Option(names = "--out", paramLabel = "FILE.jsonl", description = "Also write the records to a wire file.")
    Path out;

    @Option(names = "--strict",
            description = "Refuse a file with any unreadable line, or cut short (exit 2, nothing published), instead "
                    + "of importing its readable lines with a warning.")
    boolean strict;

    @Option(names = "--options", paramLabel = "FILE",
            description = {"A k6 options JSON (as 'k6 inspect' prints it, or {\"thresholds\": {...}}): its thresholds "
                + "are judged beside those of the file's Metric lines. The only way to give thresholds on submetrics "
                + "(http_req_duration{scenario:ingest}): k6's JSON output does not carry them."})
    Path optionsFile;

    @Option(names = "--summary", paramLabel = "FILE",
            description = {"k6's --summary-export of the same run: k6's verdict on each threshold is printed beside "
                + "rigscope's, and a disagreement fails the repeat's k6_agreement gate."})
    Path summaryFile;

    @Override
    public Integer call() {
        if (!Files.isRegularFile(file)) {
            throw new UsageException("k6 output " + file + " is not a readable file");
        }
        if (rep < 1) {
            throw new UsageException("--rep must be >= 1, was " + rep);
        }
        K6Import.Options options = new K6Import.Options(series, rep, generator, scenarioMap, !noReconciliation,
                !noSeriesMarkers, 500, strict).withK6(optionThresholds(), summary());
        WireCodec codec = new WireCodec();
        try (KafkaEndpoint endpoint = kafka.open(); TopicAdmin admin = new TopicAdmin(endpoint.clients())) {
            admin.ensureTopics();
            WirePublisher.Options publisherOptions = WirePublisher.Options.defaults().withClientId("rigscope-import-k6");
            if (out != null) {
                publisherOptions = publisherOptions.withOutFile(out);
            }
            K6Import.Result result;
            JournaledPublisher.Leftovers.publish(endpoint, kafka.journalDir(), System.err);
            try (JournaledPublisher journaled = JournaledPublisher.open(endpoint.clients(), kafka.journalDir(),
                    "import-k6-" + series, codec, publisherOptions)) {
                WirePublisher publisher = journaled.publisher();
                try {
                    result = K6Import.read(file, options, publisher::publish);
                } catch (IllegalArgumentException e) {
                    throw new UsageException(e.getMessage());
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
                }
                journaled.flush();
                if (journaled.failed()) {
                    System.err.println(journaled.notPublishedLine());
                    return ExitCodes.ERROR;
                }
            }
            System.out.printf("import k6: %s -> series %s rep %d: %,d lines, %,d samples (%,d failed), %,d dropped, "
                            + "%,d other points skipped%n", file, series, rep, result.lines(), result.samples(),
                    result.failed(), result.dropped(), result.skippedLines());
            verdictLines(result.verdicts()).forEach(System.out::println);
            result.problems().forEach(p -> System.out.println("import k6: note: " + p));
            warnings(result).forEach(System.err::println);
            return ExitCodes.OK;
        }
    }

    private Map<String, List<ThresholdDecl>> optionThresholds() {
        if (optionsFile == null) {
            return Map.of();
        }
        if (!Files.isRegularFile(optionsFile)) {
            throw new UsageException("--options " + optionsFile + " is not a readable file");
        }
        try {
            return K6Options.thresholds(optionsFile);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        } catch (IOException e) {
            throw new UsageException("--options " + optionsFile + " cannot be read: " + e.getMessage());
        }
    }

    private K6Summary summary() {
        if (summaryFile == null) {
            return null;
        }
        if (!Files.isRegularFile(summaryFile)) {
            throw new UsageException("--summary " + summaryFile + " is not a readable file");
        }
        try {
            return K6Summary.read(summaryFile);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        } catch (IOException e) {
            throw new UsageException("--summary " + summaryFile + " cannot be read: " + e.getMessage());
        }
    }

    /** One console line per threshold: rigscope's verdict, k6's beside it when known, abortOnFail. */
    static List<String> verdictLines(List<K6Verdict> verdicts) {
        List<String> lines = new ArrayList<>();
        for (K6Verdict v : verdicts) {
            StringBuilder b = new StringBuilder("import k6: threshold ").append(v.key()).append(": ")
                    .append(v.pass() ? "pass" : "FAIL");
            b.append(v.value() != null ? String.format(java.util.Locale.ROOT, " (%s over %,d points)",
                    number(v.value()), v.points()) : " (" + v.reason() + ")");
            if (v.k6Pass() != null) {
                b.append("; k6: ").append(v.k6Pass() ? "pass" : "FAIL").append(v.disagrees() ? "  DISAGREE" : "");
            }
            if (v.abortOnFail()) {
                b.append("; abortOnFail").append(v.delayAbortEval() == null ? "" : " after " + v.delayAbortEval())
                        .append(v.pass() ? "" : ": k6 aborts a run when this fails while it runs (the file does not "
                                + "say whether this one was)");
            }
            lines.add(b.toString());
        }
        return lines;
    }

    private static String number(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? String.valueOf((long) v)
                : String.format(java.util.Locale.ROOT, "%.4f", v);
    }

    /** The console's warnings on what was skipped: none for a file read whole. */
    static List<String> warnings(K6Import.Result result) {
        List<String> lines = new ArrayList<>();
        if (result.unreadableLines() > 0) {
            long unnamed = result.unreadableLines() - result.firstUnreadable().size();
            lines.add(String.format("import k6: warning: skipped %,d unreadable line(s) of %,d: %s%s",
                    result.unreadableLines(), result.lines(), String.join("; ", result.firstUnreadable()),
                    unnamed > 0 ? String.format("; and %,d more", unnamed) : ""));
        }
        if (result.cutShort()) {
            lines.add("import k6: warning: the file ends cut short (what a k6 run stopped by Ctrl-C or out of memory "
                    + "leaves): the repeat's end is marked cut short (REPEAT_END data cut_short=true)");
        }
        if (!lines.isEmpty()) {
            lines.add("import k6: warning: imported the readable lines; --strict refuses such a file");
        }
        return lines;
    }
}
