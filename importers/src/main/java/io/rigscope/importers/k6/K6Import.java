package io.rigscope.importers.k6;

import io.rigscope.analyzer.threshold.K6Verdict;
import io.rigscope.analyzer.threshold.ThresholdDecl;
import io.rigscope.analyzer.threshold.ThresholdParser;
import io.rigscope.analyzer.threshold.ThresholdParser.ThresholdSyntaxException;
import io.rigscope.model.wire.Config;
import io.rigscope.model.wire.ErrorKind;
import io.rigscope.model.wire.Ledger;
import io.rigscope.model.wire.Marker;
import io.rigscope.model.wire.RepeatEnd;
import io.rigscope.model.wire.RepeatStart;
import io.rigscope.model.wire.Sample;
import io.rigscope.model.wire.SampleBatch;
import io.rigscope.model.wire.SeriesEnd;
import io.rigscope.model.wire.SeriesStart;
import io.rigscope.model.wire.WireRecord;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.zip.GZIPInputStream;

/**
 * Turns a k6 {@code --out json} file (JSON lines; {@code .gz} accepted) into the records a live rigscope series
 * has, so the analyzer judges it like any other: markers, sample batches, then the ledger.
 *
 * <p>Mapping (k6's documented format: {@code Metric} lines declare a metric and its thresholds; {@code Point}
 * lines carry {@code time}, {@code value} and {@code tags}):
 * <ul>
 *   <li>each {@code http_req_duration} point is one request: {@code t2} = its {@code time} (k6 stamps the end
 *       of the response), service = its value in ms, {@code t1 = t0 = t2 - service} (k6 does not record the
 *       intended start); scenario = the {@code scenario} tag (renamed by the scenario map), status = the
 *       {@code status} tag. It failed when {@code expected_response} is {@code "false"}, or, without that tag,
 *       when the status is 0 or 4xx/5xx. Status {@code "0"} is a network error: {@code timeout} when the
 *       {@code error_code} tag is 1050, else {@code other}.</li>
 *   <li>{@code dropped_iterations} points add their value to the ledger's {@code dropped} of their scenario and
 *       second.</li>
 *   <li>{@code http_reqs} and {@code http_req_failed} points are counted as a cross-check only (they repeat
 *       what {@code http_req_duration} says); other metrics are skipped.</li>
 *   <li>thresholds declared on {@code Metric} lines, and those of {@link Options#thresholds()} (a k6 options
 *       file), are judged over every point of the run by {@link K6Thresholds}, as k6 judges them, and travel on
 *       the REPEAT_END marker as {@code k6_thresholds} (one {@link K6Verdict} each): the analyzer's gates for the
 *       repeat. Those rigscope's own threshold syntax reads also go into the CONFIG marker (what a rescan with a
 *       manifest, whose REPEAT_END is its own, judges from the samples).</li>
 * </ul>
 * The ledger of every second is published after all samples: {@code sent} counts requests whose {@code t1}
 * fell in the second, {@code scheduled = sent + dropped}, {@code completed} counts those whose {@code t2} did;
 * the last ledger of each scenario carries {@code last}.
 *
 * <p>A line that cannot be read (not JSON, not a k6 line, a field that does not parse) is skipped and counted,
 * unless {@link Options#strict()}: a k6 run killed by Ctrl-C or out of memory leaves its last line cut off (and a
 * {@code .gz} cut short), and the lines before it are good data. When the file's last line is unreadable, or a
 * compressed file ends early, the repeat's end is marked cut short: the REPEAT_END marker's data carries
 * {@code "cut_short": true}, and {@code "unreadable_lines": N} whenever lines were skipped.
 *
 * <p>Reads the file once with {@link K6LineReader} (twice when strict: a dry pass first, so that a refused file
 * publishes nothing); memory is bounded by the run's seconds, plus the raw values of the metrics that carry
 * thresholds (8 bytes a point).
 */
public final class K6Import {

    /**
     * @param series the series id to publish under
     * @param rep the repeat number the file is
     * @param generator the {@code src} of the samples and ledger
     * @param scenarioMap k6 scenario name -> rigscope scenario name (others keep their name)
     * @param reconciliationRequired written to the CONFIG marker; a k6 file holds no database count
     * @param seriesMarkers publish SERIES_START and SERIES_END around the repeat
     * @param batchSize samples per SampleBatch
     * @param strict refuse the file at its first unreadable line (before publishing anything) instead of skipping
     *               and counting such lines
     */
    public record Options(String series, int rep, String generator, Map<String, String> scenarioMap,
                          boolean reconciliationRequired, boolean seriesMarkers, int batchSize, boolean strict,
                          Map<String, List<ThresholdDecl>> thresholds, K6Summary summary) {

        /** Options that skip unreadable lines (not strict). */
        public Options(String series, int rep, String generator, Map<String, String> scenarioMap,
                       boolean reconciliationRequired, boolean seriesMarkers, int batchSize) {
            this(series, rep, generator, scenarioMap, reconciliationRequired, seriesMarkers, batchSize, false);
        }

        /** Options with no thresholds beyond the file's and no k6 summary. */
        public Options(String series, int rep, String generator, Map<String, String> scenarioMap,
                       boolean reconciliationRequired, boolean seriesMarkers, int batchSize, boolean strict) {
            this(series, rep, generator, scenarioMap, reconciliationRequired, seriesMarkers, batchSize, strict,
                    Map.of(), null);
        }

        /**
         * These options with thresholds from a k6 options file ({@link K6Options}) and k6's summary export of the
         * same run ({@link K6Summary}, or null).
         */
        public Options withK6(Map<String, List<ThresholdDecl>> optionThresholds, K6Summary k6Summary) {
            return new Options(series, rep, generator, scenarioMap, reconciliationRequired, seriesMarkers, batchSize,
                    strict, optionThresholds, k6Summary);
        }

        public Options {
            Objects.requireNonNull(series, "series");
            if (rep < 1) {
                throw new IllegalArgumentException("rep must be >= 1, was " + rep);
            }
            scenarioMap = Map.copyOf(scenarioMap);
            thresholds = thresholds == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(thresholds));
            if (batchSize < 1) {
                throw new IllegalArgumentException("batchSize must be >= 1, was " + batchSize);
            }
        }
    }

    /**
     * What an import read and published.
     *
     * @param lines lines read, blank and unreadable ones included
     * @param unreadableLines lines skipped because they could not be read
     * @param firstUnreadable the first few of those, as {@code line N: reason}
     * @param cutShort the file's last line was unreadable, or a compressed file ended early: the repeat's end is
     *                 where the readable data stops, not where the run ended
     * @param verdicts every threshold (the file's and the options'), judged as k6 judges it
     */
    public record Result(long lines, long samples, long failed, long dropped, long httpReqs, long skippedLines,
                         List<String> problems, Map<String, List<String>> thresholds, long unreadableLines,
                         List<String> firstUnreadable, boolean cutShort, List<K6Verdict> verdicts) {
        public Result {
            problems = List.copyOf(problems);
            firstUnreadable = List.copyOf(firstUnreadable);
            verdicts = List.copyOf(verdicts);
        }
    }

    /** The source the markers of an imported or followed k6 run name. */
    public static final String SOURCE = "k6";

    /** How many unreadable lines {@link Result#firstUnreadable()} names. */
    public static final int UNREADABLE_NAMED = 5;

    private K6Import() {
    }

    /**
     * Reads the file and hands every record to {@code out}, in publication order.
     *
     * @throws IOException when the file cannot be read
     * @throws IllegalArgumentException naming the file: when no line of it is readable, when it holds no
     *         {@code http_req_duration} point, or, when {@linkplain Options#strict() strict}, at its first
     *         unreadable line (then nothing went to {@code out})
     */
    public static Result read(Path file, Options options, Consumer<WireRecord> out) throws IOException {
        if (options.strict()) {
            pass(file, options, record -> { });
        }
        return pass(file, options, out);
    }

    private static Result pass(Path file, Options options, Consumer<WireRecord> out) throws IOException {
        State state = new State(file, options, out);
        K6LineReader.Summary summary;
        try (InputStream in = open(file)) {
            summary = new K6LineReader(state::wanted).read(in, state);
        }
        return state.finish(summary);
    }

    private static InputStream open(Path file) throws IOException {
        InputStream in = Files.newInputStream(file);
        if (file.getFileName().toString().endsWith(".gz")) {
            in = new GZIPInputStream(in, 1 << 16);
        }
        return in;
    }

    /** A dropped_iterations point as read: its scenario (renamed), second and count. */
    interface DropSink {
        void dropped(String scenario, long sec, long count);
    }

    /** One pass's state: the reader's handler; {@link K6LineRecords} drives one line by line. */
    static final class State implements K6LineReader.Handler {
        private static final String HTTP_REQ_DURATION = "http_req_duration";
        private static final String DROPPED_ITERATIONS = "dropped_iterations";
        private static final String HTTP_REQS = "http_reqs";

        private final Path file;
        private final Options options;
        private final Consumer<WireRecord> out;
        private final List<Sample> pending = new ArrayList<>();
        /** scenario -> second -> {sent, dropped, completed}. */
        private final Map<String, TreeMap<Long, long[]>> ledger = new TreeMap<>();
        private final List<String> problems = new ArrayList<>();
        /** Thresholds the CONFIG marker leaves out (rigscope's own syntax does not read them), as sentences. */
        final List<String> notInConfig = new ArrayList<>();
        /** The last point that read as k6 but could not be a request, or null. */
        String lastUnusable;
        /** Told of every dropped_iterations point (the follower publishes drops as they come). */
        DropSink drops = (scenario, sec, count) -> { };
        private final K6Thresholds judge;
        /** The last tag set seen and what it means for a request: scenario, status, error kind. */
        private K6Tags lastTags;
        private String lastScenario;
        private int lastStatus;
        private ErrorKind lastErr;
        private long samples;
        private long failed;
        private long dropped;
        private long httpReqs;
        private long skipped;
        private long firstUs = Long.MAX_VALUE;
        private long lastUs = Long.MIN_VALUE;
        private boolean started;
        private long readable;
        private long unreadable;
        private final List<String> firstUnreadable = new ArrayList<>();
        private boolean endedEarly;

        State(Path file, Options options, Consumer<WireRecord> out) {
            this.file = file;
            this.options = options;
            this.out = out;
            this.judge = new K6Thresholds(options.scenarioMap());
            options.thresholds().forEach(judge::declare);
        }

        /**
         * The metrics whose points are read: the three a request is made of, and those carrying thresholds (k6
         * writes a metric's Metric line, with its thresholds, before its first point).
         */
        boolean wanted(String metric) {
            return metric.equals(HTTP_REQ_DURATION) || metric.equals(HTTP_REQS) || metric.equals(DROPPED_ITERATIONS)
                    || judge.judges(metric);
        }

        @Override
        public void line(K6Line line) {
            readable++;
            if (line instanceof K6Line.Point p) {
                point(p);
            } else if (line instanceof K6Line.Other o && "Point".equals(o.type())) {
                skipped++; // a point of a metric no rule reads, passed over unread
            } else if (line instanceof K6Line.MetricDecl m) {
                judge.type(m.name(), m.type());
                if (!m.thresholds().isEmpty()) {
                    judge.declare(m.name(), m.thresholds());
                }
            }
        }

        @Override
        public void bad(long lineNo, String reason) {
            if (options.strict()) {
                throw new IllegalArgumentException("k6 output " + file + " line " + lineNo + " " + reason
                        + " (--strict: an unreadable line refuses the file)");
            }
            unreadable++;
            if (firstUnreadable.size() < UNREADABLE_NAMED) {
                firstUnreadable.add("line " + lineNo + ": " + reason);
            }
        }

        /** A point that read as k6 but cannot be a request: counted (or refused when strict) like a bad line. */
        private void unusable(String what) {
            lastUnusable = what;
            if (options.strict()) {
                throw new IllegalArgumentException("k6 output " + file + ": " + what
                        + " (--strict: an unreadable line refuses the file)");
            }
            readable--;
            unreadable++;
            if (firstUnreadable.size() < UNREADABLE_NAMED) {
                firstUnreadable.add(what);
            }
        }

        /** A compressed file ended before its end-of-stream: what a killed k6 leaves of an {@code --out json=F.gz}. */
        @Override
        public void endedEarly(long lineNo, String reason) {
            if (options.strict()) {
                throw new IllegalArgumentException("k6 output " + file + " ends early after line " + lineNo + ": "
                        + reason + " (--strict: a file cut short is refused)");
            }
            endedEarly = true;
        }

        private void point(K6Line.Point p) {
            judge.accept(p);
            String metric = p.metric();
            if (metric.equals(HTTP_REQ_DURATION)) {
                request(p);
            } else if (metric.equals(DROPPED_ITERATIONS)) {
                long n = Math.round(p.value());
                String scenario = scenario(p.tags());
                long sec = Math.floorDiv(p.timeUs(), 1_000_000L);
                counts(scenario, sec)[1] += n;
                dropped += n;
                drops.dropped(scenario, sec, n);
            } else if (metric.equals(HTTP_REQS)) {
                httpReqs += Math.round(p.value());
            } else {
                skipped++;
            }
        }

        private void request(K6Line.Point p) {
            long t2 = p.timeUs();
            if (!(p.value() >= 0)) {
                unusable("an http_req_duration point has a negative value: " + p.value());
                return;
            }
            long serviceUs = Math.round(p.value() * 1000.0);
            long t1 = Math.max(1, t2 - serviceUs);
            K6Tags tags = p.tags();
            if (tags != lastTags) {
                int status;
                try {
                    status = status(tags.getOrDefault("status", "0"));
                } catch (NumberFormatException e) {
                    unusable("status tag '" + tags.get("status") + "' is not a number");
                    return;
                }
                lastTags = tags;
                lastScenario = scenario(tags);
                lastStatus = status;
                lastErr = errorKind(status, tags);
            }
            String scenario = lastScenario;
            ensureStarted(t1);
            Sample s = new Sample(scenario, t1, t1, Math.max(t1, t2), lastStatus, lastErr, 1, 0, 0);
            pending.add(s);
            samples++;
            if (s.failed()) {
                failed++;
            }
            counts(scenario, Math.floorDiv(t1, 1_000_000L))[0]++;
            counts(scenario, Math.floorDiv(s.t2(), 1_000_000L))[2]++;
            firstUs = Math.min(firstUs, t1);
            lastUs = Math.max(lastUs, s.t2());
            if (pending.size() >= options.batchSize()) {
                flushSamples();
            }
        }

        private static ErrorKind errorKind(int status, K6Tags tags) {
            String expected = tags.getOrDefault("expected_response", "");
            boolean networkError = status == 0;
            ErrorKind byStatus = networkError
                    ? ("1050".equals(tags.get("error_code")) ? ErrorKind.TIMEOUT : ErrorKind.OTHER)
                    : ErrorKind.ofStatus(status);
            if ("true".equals(expected)) {
                return ErrorKind.NONE;
            }
            if ("false".equals(expected)) {
                return byStatus == ErrorKind.NONE ? ErrorKind.OTHER : byStatus;
            }
            return byStatus;
        }

        private static int status(String text) {
            return text.isEmpty() ? 0 : Integer.parseInt(text);
        }

        private String scenario(K6Tags tags) {
            String k6 = tags.getOrDefault("scenario", "default");
            if (k6.isBlank()) {
                k6 = "default";
            }
            return options.scenarioMap().getOrDefault(k6, k6);
        }

        private String countsScenario;
        private long countsSec;
        private long[] countsLast;

        private long[] counts(String scenario, long sec) {
            if (scenario == countsScenario && sec == countsSec) {
                return countsLast;
            }
            countsScenario = scenario;
            countsSec = sec;
            countsLast = ledger.computeIfAbsent(scenario, s -> new TreeMap<>()).computeIfAbsent(sec, s -> new long[3]);
            return countsLast;
        }

        private void ensureStarted(long firstT1) {
            if (started) {
                return;
            }
            started = true;
            long ts = Math.max(1, firstT1 - 2);
            String name = file.getFileName().toString();
            if (options.seriesMarkers()) {
                out.accept(new Marker(options.series(), 0, "import-k6", ts, "sustained",
                        SeriesStart.imported(SOURCE, null, name)));
            }
            configMarker(ts);
            out.accept(new Marker(options.series(), options.rep(), "import-k6", ts + 1, "sustained",
                    RepeatStart.imported(SOURCE, null, name)));
        }

        /**
         * The CONFIG marker, with the thresholds declared so far (k6 writes a metric's Metric line before its first
         * point) that rigscope's own threshold syntax reads; the rest are judged by {@link K6Thresholds} only.
         */
        /** Every threshold declared so far, judged as k6 judges it over the points read so far. */
        List<K6Verdict> verdicts() {
            return judge.judge(options.summary());
        }

        /** How many thresholds are declared so far. */
        int declaredThresholds() {
            return judge.declaredAsWritten().values().stream().mapToInt(List::size).sum();
        }

        void configMarker(long ts) {
            // thresholds_all_scenarios: k6 judges a threshold over every point of its metric
            Map<String, List<String>> judged = new LinkedHashMap<>();
            judge.declaredAsWritten().forEach((metric, list) -> {
                for (String expression : list) {
                    try {
                        ThresholdParser.parse(metric, expression);
                        judged.computeIfAbsent(metric, m -> new ArrayList<>()).add(expression);
                    } catch (ThresholdSyntaxException e) {
                        // judged by K6Thresholds alone (custom metrics, any tag filter), on the import's REPEAT_END
                        notInConfig.add("threshold judged only when the repeat ends (k6's aggregation over the "
                                + "points, on REPEAT_END), not by the CONFIG's thresholds: " + e.getMessage());
                    }
                }
            });
            out.accept(new Marker(options.series(), 0, "import-k6", ts, null,
                    Config.imported(SOURCE, options.reconciliationRequired(), judged, null)));
        }

        private void flushSamples() {
            if (pending.isEmpty()) {
                return;
            }
            out.accept(new SampleBatch(options.series(), options.rep(), options.generator(),
                    pending.get(pending.size() - 1).t2(), pending));
            pending.clear();
        }

        Result finish(K6LineReader.Summary summary) {
            if (readable == 0 && (unreadable > 0 || endedEarly)) {
                throw new IllegalArgumentException("k6 output " + file + " has no readable line ("
                        + unreadable + " unreadable" + (firstUnreadable.isEmpty() ? "" : ", " + firstUnreadable.get(0))
                        + (endedEarly ? "; the compressed file ends early" : "") + "): nothing to import");
            }
            if (!started) {
                throw new IllegalArgumentException("k6 output " + file + " holds no http_req_duration point: "
                        + "nothing to import");
            }
            boolean cutShort = summary.lastLineBad() || endedEarly;
            flushSamples();
            for (var e : ledger.entrySet()) {
                String scenario = e.getKey();
                var secs = e.getValue();
                long lastSec = secs.lastKey();
                for (var s : secs.entrySet()) {
                    long[] c = s.getValue();
                    out.accept(new Ledger(options.series(), options.rep(), options.generator(),
                            (s.getKey() + 1) * 1_000_000L, scenario, s.getKey(), c[0] + c[1], c[0], c[1], c[2],
                            s.getKey() == lastSec));
                }
            }
            List<K6Verdict> verdicts = judge.judge(options.summary());
            long end = lastUs + 1;
            out.accept(new Marker(options.series(), options.rep(), "import-k6", end, "sustained",
                    RepeatEnd.imported(null, null, cutShort, unreadable,
                            verdicts.stream().map(K6Verdict::toWire).toList())));
            if (options.seriesMarkers()) {
                out.accept(new Marker(options.series(), 0, "import-k6", end + 1, null, SeriesEnd.EMPTY));
            }
            if (httpReqs != 0 && httpReqs != samples) {
                problems.add("http_reqs counted " + httpReqs + " requests but http_req_duration " + samples);
            }
            return new Result(summary.lines(), samples, failed, dropped, httpReqs, skipped, problems,
                    judge.declaredAsWritten(), unreadable, firstUnreadable, cutShort, verdicts);
        }
    }
}
