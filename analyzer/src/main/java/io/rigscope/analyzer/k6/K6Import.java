package io.rigscope.analyzer.k6;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.rigscope.analyzer.threshold.ThresholdParser;
import io.rigscope.analyzer.threshold.ThresholdSyntaxException;
import io.rigscope.model.wire.ErrorKind;
import io.rigscope.model.wire.Ledger;
import io.rigscope.model.wire.Marker;
import io.rigscope.model.wire.Sample;
import io.rigscope.model.wire.SampleBatch;
import io.rigscope.model.wire.WireRecord;
import java.io.BufferedReader;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
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
 *   <li>thresholds declared on {@code Metric} lines go into the CONFIG marker as k6's thresholds map; those
 *       rigscope cannot judge (other metrics, tag filters other than {@code scenario}) are listed in
 *       {@link Result#problems()} and left out.</li>
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
 * <p>Reads the file twice (thresholds first, so the CONFIG marker precedes the data), three times when strict (a
 * dry pass first, so that a refused file publishes nothing); memory is bounded by the run's seconds, not its
 * requests.
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
                          boolean reconciliationRequired, boolean seriesMarkers, int batchSize, boolean strict) {

        /** Options that skip unreadable lines (not strict). */
        public Options(String series, int rep, String generator, Map<String, String> scenarioMap,
                       boolean reconciliationRequired, boolean seriesMarkers, int batchSize) {
            this(series, rep, generator, scenarioMap, reconciliationRequired, seriesMarkers, batchSize, false);
        }

        public Options {
            Objects.requireNonNull(series, "series");
            if (rep < 1) {
                throw new IllegalArgumentException("rep must be >= 1, was " + rep);
            }
            scenarioMap = Map.copyOf(scenarioMap);
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
     */
    public record Result(long lines, long samples, long failed, long dropped, long httpReqs, long skippedLines,
                         List<String> problems, Map<String, List<String>> thresholds, long unreadableLines,
                         List<String> firstUnreadable, boolean cutShort) {
        public Result {
            problems = List.copyOf(problems);
            firstUnreadable = List.copyOf(firstUnreadable);
        }
    }

    /** How many unreadable lines {@link Result#firstUnreadable()} names. */
    public static final int UNREADABLE_NAMED = 5;

    private static final ObjectMapper JSON = JsonMapper.builder().build();

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
        Map<String, List<String>> thresholds = thresholds(file);
        if (options.strict()) {
            pass(file, options, record -> { }, thresholds);
        }
        return pass(file, options, out, thresholds);
    }

    private static Result pass(Path file, Options options, Consumer<WireRecord> out,
                               Map<String, List<String>> thresholds) throws IOException {
        State state = new State(file, options, out, thresholds);
        try (BufferedReader reader = open(file)) {
            String line;
            while ((line = reader.readLine()) != null) {
                state.line(line);
            }
        } catch (EOFException e) {
            state.endedEarly(e);
        }
        return state.finish();
    }

    private static Map<String, List<String>> thresholds(Path file) throws IOException {
        Map<String, List<String>> thresholds = new LinkedHashMap<>();
        try (BufferedReader reader = open(file)) {
            String line;
            while ((line = reader.readLine()) != null) {
                if (!line.contains("\"Metric\"")) {
                    continue;
                }
                JsonNode node;
                try {
                    node = JSON.readTree(line);
                } catch (IOException e) {
                    continue; // counted by the main pass
                }
                thresholdsOf(node, thresholds);
            }
        } catch (EOFException e) {
            // a compressed file cut short: the main pass says so
        }
        return thresholds;
    }

    /** Adds the thresholds a {@code Metric} line declares to {@code into}; other lines add nothing. */
    static void thresholdsOf(JsonNode node, Map<String, List<String>> into) {
        if (node != null && "Metric".equals(node.path("type").asText())) {
            JsonNode t = node.path("data").path("thresholds");
            String name = node.path("metric").asText(node.path("data").path("name").asText());
            if (t.isArray() && t.size() > 0) {
                List<String> list = into.computeIfAbsent(name, n -> new ArrayList<>());
                t.forEach(x -> list.add(x.isObject() ? x.path("threshold").asText() : x.asText()));
            }
        }
    }

    private static BufferedReader open(Path file) throws IOException {
        InputStream in = Files.newInputStream(file);
        if (file.getFileName().toString().endsWith(".gz")) {
            in = new GZIPInputStream(in, 1 << 16);
        }
        return new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16);
    }

    /** A dropped_iterations point as read: its scenario (renamed), second and count. */
    interface DropSink {
        void dropped(String scenario, long sec, long count);
    }

    /** One pass's state; {@link K6LineRecords} drives one line by line. */
    static final class State {
        private final Path file;
        private final Options options;
        private final Consumer<WireRecord> out;
        private final List<Sample> pending = new ArrayList<>();
        /** scenario -> second -> {sent, dropped, completed}. */
        private final Map<String, TreeMap<Long, long[]>> ledger = new TreeMap<>();
        final List<String> problems = new ArrayList<>();
        private long lineNo;
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
        private boolean lastLineUnreadable;
        private boolean endedEarly;

        private final Map<String, List<String>> thresholds;
        /** Told of every dropped_iterations point (the follower publishes drops as they come). */
        DropSink drops = (scenario, sec, count) -> { };

        State(Path file, Options options, Consumer<WireRecord> out, Map<String, List<String>> thresholds) {
            this.file = file;
            this.options = options;
            this.out = out;
            this.thresholds = thresholds;
        }

        void line(String text) {
            lineNo++;
            if (text.isBlank()) {
                return;
            }
            try {
                parse(text);
                readable++;
                lastLineUnreadable = false;
            } catch (BadLine e) {
                if (options.strict()) {
                    throw new IllegalArgumentException("k6 output " + file + " line " + lineNo + " " + e.what
                            + " (--strict: an unreadable line refuses the file)");
                }
                unreadable++;
                lastLineUnreadable = true;
                if (firstUnreadable.size() < UNREADABLE_NAMED) {
                    firstUnreadable.add("line " + lineNo + ": " + e.what);
                }
            }
        }

        /** A compressed file ended before its end-of-stream: what a killed k6 leaves of an {@code --out json=F.gz}. */
        void endedEarly(EOFException e) {
            if (options.strict()) {
                throw new IllegalArgumentException("k6 output " + file + " ends early after line " + lineNo + ": "
                        + e.getMessage() + " (--strict: a file cut short is refused)");
            }
            endedEarly = true;
        }

        void parse(String text) {
            JsonNode node;
            try {
                node = JSON.readTree(text);
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw bad("is not JSON: " + e.getOriginalMessage());
            } catch (IOException e) {
                throw bad("is not JSON: " + e.getMessage());
            }
            if (node == null || !node.isObject() || !node.has("type")) {
                throw bad("is not a k6 JSON output line (no \"type\")");
            }
            if (!"Point".equals(node.get("type").asText())) {
                return;
            }
            String metric = node.path("metric").asText();
            JsonNode data = node.path("data");
            switch (metric) {
                case "http_req_duration" -> request(data);
                case "dropped_iterations" -> {
                    long n = Math.round(data.path("value").asDouble());
                    long us = timeUs(data);
                    String scenario = scenario(data.path("tags"));
                    counts(scenario, Math.floorDiv(us, 1_000_000L))[1] += n;
                    dropped += n;
                    drops.dropped(scenario, Math.floorDiv(us, 1_000_000L), n);
                }
                case "http_reqs" -> httpReqs += Math.round(data.path("value").asDouble(1));
                default -> skipped++;
            }
        }

        private void request(JsonNode data) {
            long t2 = timeUs(data);
            JsonNode valueNode = data.get("value");
            if (valueNode == null || !valueNode.isNumber() || valueNode.asDouble() < 0) {
                throw bad("http_req_duration point has no non-negative numeric \"value\"");
            }
            long serviceUs = Math.round(valueNode.asDouble() * 1000.0);
            long t1 = Math.max(1, t2 - serviceUs);
            JsonNode tags = data.path("tags");
            String scenario = scenario(tags);
            int status = status(tags.path("status").asText("0"));
            ErrorKind err = errorKind(status, tags);
            ensureStarted(t1);
            Sample s = new Sample(scenario, t1, t1, Math.max(t1, t2), status, err, 1, 0, 0);
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

        private ErrorKind errorKind(int status, JsonNode tags) {
            String expected = tags.path("expected_response").asText("");
            boolean networkError = status == 0;
            ErrorKind byStatus = networkError
                    ? ("1050".equals(tags.path("error_code").asText("")) ? ErrorKind.TIMEOUT : ErrorKind.OTHER)
                    : ErrorKind.ofStatus(status);
            if ("true".equals(expected)) {
                return ErrorKind.NONE;
            }
            if ("false".equals(expected)) {
                return byStatus == ErrorKind.NONE ? ErrorKind.OTHER : byStatus;
            }
            return byStatus;
        }

        private int status(String text) {
            try {
                return text.isEmpty() ? 0 : Integer.parseInt(text);
            } catch (NumberFormatException e) {
                throw bad("status tag '" + text + "' is not a number");
            }
        }

        private String scenario(JsonNode tags) {
            String k6 = tags.path("scenario").asText("default");
            if (k6.isBlank()) {
                k6 = "default";
            }
            return options.scenarioMap().getOrDefault(k6, k6);
        }

        private long timeUs(JsonNode data) {
            String text = data.path("time").asText("");
            try {
                OffsetDateTime t = OffsetDateTime.parse(text);
                return t.toEpochSecond() * 1_000_000L + t.getNano() / 1_000;
            } catch (DateTimeParseException e) {
                throw bad("time '" + text + "' is not an RFC 3339 timestamp");
            }
        }

        private long[] counts(String scenario, long sec) {
            return ledger.computeIfAbsent(scenario, s -> new TreeMap<>()).computeIfAbsent(sec, s -> new long[3]);
        }

        private void ensureStarted(long firstT1) {
            if (started) {
                return;
            }
            started = true;
            long ts = Math.max(1, firstT1 - 2);
            if (options.seriesMarkers()) {
                out.accept(new Marker(options.series(), 0, "import-k6", ts, Marker.Kind.SERIES_START, "sustained",
                        Map.of("source", "k6", "file", file.getFileName().toString())));
            }
            configMarker(ts);
            out.accept(new Marker(options.series(), options.rep(), "import-k6", ts + 1, Marker.Kind.REPEAT_START,
                    "sustained", Map.of("source", "k6", "file", file.getFileName().toString())));
        }

        void configMarker(long ts) {
            Map<String, Object> config = new LinkedHashMap<>();
            config.put("source", "k6");
            config.put("reconciliation_required", options.reconciliationRequired());
            config.put("thresholds_all_scenarios", true);   // k6 judges a threshold over every point of its metric
            Map<String, List<String>> judged = new LinkedHashMap<>();
            thresholds.forEach((metric, list) -> {
                for (String expression : list) {
                    try {
                        ThresholdParser.parse(metric, expression);
                        judged.computeIfAbsent(metric, m -> new ArrayList<>()).add(expression);
                    } catch (ThresholdSyntaxException e) {
                        problems.add("threshold not judged by rigscope: " + e.getMessage());
                    }
                }
            });
            if (!judged.isEmpty()) {
                config.put("thresholds", judged);
            }
            out.accept(new Marker(options.series(), 0, "import-k6", ts, Marker.Kind.CONFIG, null, config));
        }

        private void flushSamples() {
            if (pending.isEmpty()) {
                return;
            }
            out.accept(new SampleBatch(options.series(), options.rep(), options.generator(),
                    pending.get(pending.size() - 1).t2(), pending));
            pending.clear();
        }

        Result finish() {
            if (readable == 0 && (unreadable > 0 || endedEarly)) {
                throw new IllegalArgumentException("k6 output " + file + " has no readable line ("
                        + unreadable + " unreadable" + (firstUnreadable.isEmpty() ? "" : ", " + firstUnreadable.get(0))
                        + (endedEarly ? "; the compressed file ends early" : "") + "): nothing to import");
            }
            if (!started) {
                throw new IllegalArgumentException("k6 output " + file + " holds no http_req_duration point: "
                        + "nothing to import");
            }
            boolean cutShort = lastLineUnreadable || endedEarly;
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
            long end = lastUs + 1;
            Map<String, Object> endData = new LinkedHashMap<>();
            if (cutShort) {
                endData.put("cut_short", true);
            }
            if (unreadable > 0) {
                endData.put("unreadable_lines", unreadable);
            }
            out.accept(new Marker(options.series(), options.rep(), "import-k6", end, Marker.Kind.REPEAT_END,
                    "sustained", endData));
            if (options.seriesMarkers()) {
                out.accept(new Marker(options.series(), 0, "import-k6", end + 1, Marker.Kind.SERIES_END, null,
                        Map.of()));
            }
            if (httpReqs != 0 && httpReqs != samples) {
                problems.add("http_reqs counted " + httpReqs + " requests but http_req_duration " + samples);
            }
            return new Result(lineNo, samples, failed, dropped, httpReqs, skipped, problems, thresholds, unreadable,
                    firstUnreadable, cutShort);
        }

        private BadLine bad(String what) {
            return new BadLine(what);
        }
    }

    /** A line that cannot be read, and why; {@link State#line} counts it or, when strict, refuses the file. */
    static final class BadLine extends RuntimeException {
        private final String what;

        BadLine(String what) {
            super(what, null, false, false);
            this.what = what;
        }

        /** Why the line cannot be read. */
        String what() {
            return what;
        }
    }
}
