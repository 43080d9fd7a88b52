package io.rigscope.rig.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.rigscope.analyzer.api.Analyzer;
import io.rigscope.analyzer.decision.Decision;
import io.rigscope.analyzer.compare.Comparison;
import io.rigscope.analyzer.compare.SeriesFigures;
import io.rigscope.analyzer.pipeline.AnalyzerInput;
import io.rigscope.analyzer.report.ComparisonPage;
import io.rigscope.analyzer.report.HtmlReport;
import io.rigscope.analyzer.report.ReportFiles;
import io.rigscope.analyzer.report.ReportMaterial;
import io.rigscope.localenv.kafka.KafkaEndpoint;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.model.wire.WireRecord;
import io.rigscope.rig.options.ExitCodes;
import io.rigscope.rig.options.KafkaOptions;
import io.rigscope.rig.options.UsageException;
import io.rigscope.wire.WireSource;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.GZIPInputStream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import reactor.core.publisher.Flux;

/**
 * {@code rigscope compare A B}: two series side by side and a verdict on B (the treatment) against A (the control)
 * from an exact permutation test, refusing rigs whose environments differ (docs/compare.md).
 */
@Command(name = "compare", header = "Compare two series: per-repeat figures, an exact test, better/worse/no_difference.",
        mixinStandardHelpOptions = true,
        description = {"A and B are each a report JSON file (--report-json), a wire file (.jsonl or .jsonl.gz, "
            + "replayed through the analyzer) or a series id on the broker's topics (replayed from them). B is the "
            + "treatment, A the control.",
            "The verdict: not_comparable when the environments differ in anything but --treatment (unless "
            + "--cross-rig); none below 3 judged repeats a side; else the exact permutation test on per-repeat p99 "
            + "and on per-repeat freeze-seconds at p <= 0.10: worse, better or no_difference.",
            "Exit codes: 0 compared (whatever the verdict), 1 the broker could not be read, 2 a bad input."})
final class CompareCommand implements Callable<Integer> {

    @Mixin
    KafkaOptions kafka = new KafkaOptions();

    @Parameters(index = "0", paramLabel = "A", description = "The control: a report JSON, a wire file or a series id.")
    String first;

    @Parameters(index = "1", paramLabel = "B", description = "The treatment: a report JSON, a wire file or a series id.")
    String second;

    @Option(names = "--json", description = "Print the comparison as one JSON document.")
    boolean json;

    @Option(names = "--cross-rig", description = "Compare even when the environments differ; every line says so.")
    boolean crossRig;

    @Option(names = "--report-html", paramLabel = "FILE", description = "Write a page of the two series overlaid per "
            + "second (p99, freeze-seconds, the telemetry panels) with the comparison; A and B must be wire files or "
            + "series ids (a report JSON has no seconds).")
    Path reportHtml;

    @Option(names = "--treatment", paramLabel = "KEY[,KEY]", split = ",",
            description = "Postgres settings that are the treatment: they may differ between A and B.")
    List<String> treatment = new ArrayList<>();

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    @Override
    public Integer call() throws IOException {
        if (reportHtml != null && Files.isDirectory(reportHtml)) {
            throw new UsageException("--report-html " + reportHtml + " is a directory: it names the page's file");
        }
        SeriesFigures a = read("A", first);
        SeriesFigures b = read("B", second);
        Set<String> declared = new LinkedHashSet<>(treatment.stream().map(String::strip).filter(s -> !s.isEmpty())
                .toList());
        Comparison c = Comparison.of(a, b, crossRig, declared);
        if (reportHtml != null) {
            Files.writeString(reportHtml, ComparisonPage.render(c, pages.get("A"), pages.get("B")));
        }
        if (json) {
            System.out.println(JSON.writeValueAsString(c.toJson()));
        } else {
            c.lines().forEach(System.out::println);
        }
        return ExitCodes.OK;
    }

    /** Each side's wire lines for the comparison page (with --report-html), by side. */
    private final java.util.Map<String, List<String>> pages = new java.util.HashMap<>();

    private SeriesFigures read(String side, String arg) {
        Path path = Path.of(arg);
        if (Files.isRegularFile(path)) {
            SeriesFigures f = fromFile(side, path);
            if (reportHtml != null && !pages.containsKey(side)) {
                throw new UsageException("--report-html: " + side + " " + arg + " is a report JSON, which holds no "
                        + "seconds; give its wire file (--out) or series id");
            }
            return f;
        }
        if (arg.contains("/") || arg.endsWith(".json") || arg.endsWith(".jsonl") || arg.endsWith(".gz")) {
            throw new UsageException("compare: " + side + " " + arg + ": no such file");
        }
        return fromTopics(side, arg);
    }

    private SeriesFigures fromFile(String side, Path file) {
        String text;
        boolean gzip;
        try (InputStream in = Files.newInputStream(file)) {
            byte[] head = in.readNBytes(2);
            gzip = head.length == 2 && (head[0] & 0xff) == 0x1f && (head[1] & 0xff) == 0x8b;
        } catch (IOException e) {
            throw new UsageException("compare: " + side + " " + file + ": cannot be read: " + e.getMessage());
        }
        String firstLine;
        try (BufferedReader r = new BufferedReader(new InputStreamReader(gzip
                ? new GZIPInputStream(Files.newInputStream(file)) : Files.newInputStream(file), StandardCharsets.UTF_8))) {
            firstLine = r.readLine();
        } catch (IOException e) {
            throw new UsageException("compare: " + side + " " + file + ": cannot be read: " + e.getMessage());
        }
        if (firstLine == null || firstLine.isBlank()) {
            throw new UsageException("compare: " + side + " " + file + ": empty");
        }
        JsonNode line;
        try {
            line = JSON.readTree(firstLine);
        } catch (IOException e) {
            line = null;
        }
        if (line != null && line.has("topic") && line.has("key") && line.has("value")) {
            return fromWireFile(side, file, line.get("key").asText());
        }
        if (gzip) {
            throw new UsageException("compare: " + side + " " + file + ": a gzip file whose first line is not a wire "
                    + "record ({\"topic\",\"key\",\"value\"})");
        }
        try {
            text = Files.readString(file);
            return SeriesFigures.of(file.toString(), JSON.readTree(text));
        } catch (IOException e) {
            throw new UsageException("compare: " + side + " " + file + ": neither a report JSON (--report-json) nor "
                    + "a wire file (.jsonl[.gz]): " + e.getMessage().lines().findFirst().orElse(""));
        } catch (IllegalArgumentException e) {
            throw new UsageException("compare: " + side + " " + file + ": " + e.getMessage());
        }
    }

    private SeriesFigures fromWireFile(String side, Path file, String series) {
        AtomicLong bad = new AtomicLong();
        Flux<List<WireRecord>> records = AnalyzerInput.fromWireFile(file, new WireCodec(), f -> bad.incrementAndGet());
        return judged(side, file + " (wire file, replayed)", series, records);
    }

    private SeriesFigures fromTopics(String side, String series) {
        try (KafkaEndpoint endpoint = kafka.open()) {
            WireCodec codec = new WireCodec();
            WireSource source = new WireSource(endpoint.clients(), codec);
            Flux<List<WireRecord>> records = AnalyzerInput.fromKafka(source, series, false, f -> { });
            return judged(side, "topics, replayed", series, records);
        }
    }

    private SeriesFigures judged(String side, String source, String series, Flux<List<WireRecord>> records) {
        ReportMaterial kept = new ReportMaterial(series, reportHtml != null, false);
        Decision last = Analyzer.forSeries(series).replay(records.doOnNext(kept::records)).doOnNext(kept::decision)
                .blockLast();
        if (!(last instanceof Decision.Series s)) {
            throw new UsageException("compare: " + side + " " + series + " (" + source + "): the series was never "
                    + "judged (no SERIES_START and repeats for it)");
        }
        if (reportHtml != null) {
            pages.put(side, HtmlReport.wireLines(s.report(), kept.decisions(), kept.telemetry()));
        }
        try {
            return SeriesFigures.of(source, JSON.readTree(ReportFiles.json(s.report())));
        } catch (IOException | IllegalArgumentException e) {
            throw new UsageException("compare: " + side + " " + series + ": " + e.getMessage());
        }
    }
}
