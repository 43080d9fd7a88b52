package io.rigscope.importers.k6;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.csv.CsvFactory;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import io.rigscope.analyzer.threshold.ThresholdDecl;
import io.rigscope.model.wire.Config;
import io.rigscope.model.wire.K6Threshold;
import io.rigscope.model.wire.Marker;
import io.rigscope.model.wire.RepeatEnd;
import io.rigscope.model.wire.WireRecord;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * The k6 files of a directory (JSON plain or gzip, CSV) as repeats, through the k6 reader ({@link K6Import}):
 * each file is first checked line by line (a line that is not a k6 point is counted bad, never
 * fatal) and split by repeat into plain k6 JSON lines in a work directory, CSV rows converted to points on the way;
 * then every repeat is imported. With a manifest a point belongs to the repeat whose {@code [start, end)} holds its
 * {@code time} (points outside every repeat are counted and left out); without one each file is one repeat,
 * numbered in the order of their first points.
 *
 * <p>Times keep the zone they were written in: k6's JSON writes its local offset, which {@link OffsetDateTime}
 * reads; CSV timestamps are epoch (seconds, ms, µs or ns by magnitude) or RFC 3339.
 */
public final class K6Files {

    private static final ObjectMapper JSON = JsonMapper.builder().build();

    private final List<Repeat> repeats;
    private final Map<String, ?> thresholds;
    private final Path workDir;
    /** Metric lines seen so far (one per metric), copied to the head of every repeat's file. */
    private final Map<String, String> metricLines = new LinkedHashMap<>();
    /** Repeat key (manifest rep, or file index without one) -> its split file. */
    private final TreeMap<Integer, Split> splits = new TreeMap<>();
    private int files;

    /** One repeat's k6 JSON lines in the work directory. */
    private static final class Split {
        final Path path;
        final BufferedWriter writer;
        long firstUs = Long.MAX_VALUE;
        final List<Counts> tallies = new ArrayList<>();

        Split(Path path) throws IOException {
            this.path = path;
            this.writer = Files.newBufferedWriter(path, StandardCharsets.UTF_8);
        }
    }

    /**
     * One repeat of an evidence directory's manifest: the points whose time is in {@code [startUs, endUs)} are its.
     *
     * @param rep its number, 1 or more
     * @param startUs when its load started, epoch µs (inclusive)
     * @param endUs when it ended, epoch µs (exclusive)
     */
    public record Repeat(int rep, long startUs, long endUs) {

        boolean contains(long epochUs) {
            return epochUs >= startUs && epochUs < endUs;
        }
    }

    /**
     * What one k6 file gave while it is read (a rescan counts it per file). Not thread-safe.
     */
    public interface Counts {
        /** One non-blank line read. */
        void line();

        /** One point kept for a repeat. */
        void record();

        /** A line that could not be read, and why. */
        void bad(long lineNo, String why);

        /** Anything else to say about the file. */
        void note(String text);
    }

    /**
     * What the import gave.
     *
     * @param thresholds k6's thresholds from the files' Metric lines, as K6Import judged them
     * @param repeats repeat number -> its first point, epoch µs
     * @param problems K6Import's notes (thresholds it cannot judge, counts that disagree)
     * @param k6Thresholds repeat number -> its thresholds as k6 judges them (K6Import's REPEAT_END
     *                     {@code k6_thresholds}), for the manifest's REPEAT_END to carry
     */
    public record Imported(Map<String, Object> thresholds, Map<Integer, Long> repeats, List<String> problems,
                    Map<Integer, List<K6Threshold>> k6Thresholds) {
    }

    /**
     * @param repeats the manifest's repeats, in order; empty without a manifest (then each file is one repeat)
     * @param thresholds the manifest's k6 thresholds object (judged beside the files' own), or empty
     * @param workDir where each repeat's k6 JSON lines are written
     */
    public K6Files(List<Repeat> repeats, Map<String, ?> thresholds, Path workDir) {
        this.repeats = List.copyOf(repeats);
        this.thresholds = Map.copyOf(thresholds);
        this.workDir = workDir;
    }

    /** True when no point was kept. */
    public boolean isEmpty() {
        return splits.isEmpty();
    }

    /** Closes the split files still open (after a failure; {@link #publish} closes them itself). */
    public void close() {
        for (Split s : splits.values()) {
            try {
                s.writer.close();
            } catch (IOException e) {
                // closing twice or after a failure: nothing left to save
            }
        }
    }

    /**
     * Checks and splits one k6 file.
     *
     * @param text the file's text (decompressed); closed here
     * @param csv true for k6's CSV output (read by jackson-dataformat-csv), false for its JSON lines
     * @param tally what the file gave
     */
    public void add(BufferedReader text, boolean csv, Counts tally) throws IOException {
        int fileKey = ++files;
        long outside = 0;
        try (BufferedReader r = text) {
            if (csv) {
                outside = addCsv(r, fileKey, tally);
            } else {
                String line;
                long n = 0;
                while ((line = r.readLine()) != null) {
                    n++;
                    if (line.isBlank()) {
                        continue;
                    }
                    tally.line();
                    ObjectNode node;
                    try {
                        JsonNode parsed = JSON.readTree(line);
                        if (!(parsed instanceof ObjectNode o) || !o.has("type")) {
                            tally.bad(n, "not a k6 output line (no \"type\")");
                            continue;
                        }
                        node = o;
                    } catch (IOException e) {
                        tally.bad(n, "not JSON");
                        continue;
                    }
                    String type = node.path("type").asText();
                    if (type.equals("Metric")) {
                        String name = node.path("metric").asText(node.path("data").path("name").asText());
                        if (metricLines.putIfAbsent(name, line) == null) {
                            for (Split s : splits.values()) {
                                write(s, line);
                            }
                        }
                        continue;
                    }
                    if (type.equals("Point") && !keep(node, line, n, fileKey, tally)) {
                        outside++;
                    }
                }
            }
        }
        if (outside > 0) {
            tally.note(String.format("%,d point(s) outside every repeat of the manifest, left out", outside));
        }
    }

    /**
     * k6's CSV rows (the first is the header) as points; a row that is not a point is counted bad. A quoting error
     * ends the file: what follows it cannot be told apart into rows.
     *
     * @return how many points fell outside every repeat
     */
    private long addCsv(BufferedReader r, int fileKey, Counts tally) throws IOException {
        long outside = 0;
        String[] header = null;
        List<String> row = new ArrayList<>();
        try (JsonParser p = Csv.FACTORY.createParser(r)) {
            long n = 0;
            try {
                while (p.nextToken() == JsonToken.START_ARRAY) {
                    row.clear();
                    while (p.nextToken() == JsonToken.VALUE_STRING) {
                        if (row.isEmpty()) {
                            n = p.currentTokenLocation().getLineNr();   // the row's line: its first value's
                        }
                        row.add(p.getText());
                    }
                    if (row.size() == 1 && row.get(0).isBlank()) {
                        continue;   // a blank line
                    }
                    tally.line();
                    if (header == null) {
                        header = row.toArray(String[]::new);
                        continue;
                    }
                    ObjectNode node;
                    try {
                        node = Csv.point(header, row);
                    } catch (IllegalArgumentException e) {
                        tally.bad(n, e.getMessage());
                        continue;
                    }
                    if (!keep(node, null, n, fileKey, tally)) {
                        outside++;
                    }
                }
            } catch (JsonProcessingException e) {
                tally.line();
                tally.bad(e.getLocation() == null ? n + 1 : e.getLocation().getLineNr(),
                        "not CSV (" + e.getOriginalMessage() + "); the rest of the file is skipped");
            }
        }
        return outside;
    }

    /**
     * Keeps one valid point for its repeat: written as it was read ({@code line}), or as JSON when it was a CSV row
     * ({@code line} null); counted bad when invalid.
     *
     * @return false when the point falls outside every repeat of the manifest (left out)
     */
    private boolean keep(ObjectNode node, String line, long n, int fileKey, Counts tally) throws IOException {
        String why = invalid(node);
        if (why != null) {
            tally.bad(n, why);
            return true;
        }
        long us = timeUs(node.path("data").path("time").asText());
        int key = fileKey;
        if (!repeats.isEmpty()) {
            key = repeats.stream().filter(rep -> rep.contains(us)).mapToInt(Repeat::rep).findFirst().orElse(0);
            if (key == 0) {
                return false;
            }
        }
        Split split = split(key);
        if (!split.tallies.contains(tally)) {
            split.tallies.add(tally);
        }
        split.firstUs = Math.min(split.firstUs, us);
        write(split, line == null ? node.toString() : line);
        tally.record();
        return true;
    }

    /** Why a point cannot be imported, or null when it can. */
    private static String invalid(JsonNode point) {
        JsonNode data = point.path("data");
        try {
            timeUs(data.path("time").asText(""));
        } catch (DateTimeParseException e) {
            return "time '" + data.path("time").asText("") + "' is not an RFC 3339 timestamp";
        }
        if (point.path("metric").asText().equals("http_req_duration")) {
            if (!data.path("value").isNumber() || data.path("value").asDouble() < 0) {
                return "http_req_duration point has no non-negative numeric value";
            }
            String status = data.path("tags").path("status").asText("");
            if (!status.isEmpty() && !status.matches("\\d+")) {
                return "status tag '" + status + "' is not a number";
            }
        }
        return null;
    }

    static long timeUs(String text) {
        OffsetDateTime t = OffsetDateTime.parse(text);
        return t.toEpochSecond() * 1_000_000L + t.getNano() / 1_000;
    }

    private Split split(int key) throws IOException {
        Split s = splits.get(key);
        if (s == null) {
            s = new Split(workDir.resolve("k6-" + key + ".jsonl"));
            for (String m : metricLines.values()) {
                write(s, m);
            }
            splits.put(key, s);
        }
        return s;
    }

    private static void write(Split s, String line) {
        try {
            s.writer.write(line);
            s.writer.newLine();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Imports every repeat. K6Import's CONFIG markers are taken apart (their thresholds returned, for the one CONFIG
     * rescan publishes); with a manifest its REPEAT_START/END are left out too (the manifest's are published).
     */
    public Imported publish(String series, Map<String, String> scenarioMap, boolean reconciliationRequired,
                     Consumer<WireRecord> out) throws IOException {
        Map<String, List<ThresholdDecl>> extra = thresholds.isEmpty() ? Map.of()
                : ThresholdDecl.decodeAll(thresholds);
        for (Split s : splits.values()) {
            s.writer.close();
        }
        List<Map.Entry<Integer, Split>> order = new ArrayList<>(splits.entrySet());
        if (repeats.isEmpty()) {
            order.sort(Map.Entry.comparingByValue((a, b) -> Long.compare(a.firstUs, b.firstUs)));
        }
        Map<String, Object> thresholds = new LinkedHashMap<>();
        Map<Integer, Long> repeats = new TreeMap<>();
        List<String> problems = new ArrayList<>();
        Map<Integer, List<K6Threshold>> k6Thresholds = new TreeMap<>();
        boolean ownRepeats = repeats.isEmpty();
        int next = 0;
        for (Map.Entry<Integer, Split> e : order) {
            int rep = ownRepeats ? ++next : e.getKey();
            Consumer<WireRecord> filtered = r -> {
                if (r instanceof Marker m && m.body() instanceof Config c) {
                    if (c.ownThresholds() != null) {
                        c.ownThresholds().forEach(thresholds::putIfAbsent);
                    }
                    return;
                }
                if (!ownRepeats && r instanceof Marker m
                        && (m.kind() == Marker.Kind.REPEAT_START || m.kind() == Marker.Kind.REPEAT_END)) {
                    if (m.body() instanceof RepeatEnd end && end.k6Thresholds() != null) {
                        k6Thresholds.put(m.rep(), end.k6Thresholds());
                    }
                    return;
                }
                out.accept(r);
            };
            try {
                K6Import.Result result = K6Import.read(e.getValue().path,
                        new K6Import.Options(series, rep, "k6", scenarioMap, reconciliationRequired, false, 500)
                                .withK6(extra, null),
                        filtered);
                problems.addAll(result.problems());
                repeats.put(rep, e.getValue().firstUs);
            } catch (IllegalArgumentException ex) {
                String what = "repeat " + rep + ": " + ex.getMessage().replace(e.getValue().path.toString(), "");
                e.getValue().tallies.forEach(t -> t.note(what));
            }
        }
        return new Imported(thresholds, repeats, problems, k6Thresholds);
    }

    /** k6's CSV rows as k6 JSON points. */
    static final class Csv {
        /**
         * Rows, each an array of strings (no schema), quoted as Go's encoding/csv writes them (double quotes group
         * and escape with {@code ""}); empty lines skipped.
         */
        static final CsvFactory FACTORY = CsvFactory.builder().enable(CsvParser.Feature.SKIP_EMPTY_LINES).build();

        private static final java.util.Set<String> NOT_TAGS = java.util.Set.of("metric_name", "timestamp",
                "metric_value", "extra_tags", "metadata");

        private Csv() {
        }

        static ObjectNode point(String[] header, List<String> row) {
            if (row.size() < 3) {
                throw new IllegalArgumentException("a CSV row needs metric_name, timestamp and metric_value");
            }
            ObjectNode tags = JSON.createObjectNode();
            String metric = null;
            String time = null;
            double value = Double.NaN;
            for (int i = 0; i < header.length && i < row.size(); i++) {
                String col = header[i];
                String v = row.get(i);
                switch (col) {
                    case "metric_name" -> metric = v;
                    case "timestamp" -> time = time(v);
                    case "metric_value" -> {
                        try {
                            value = Double.parseDouble(v);
                        } catch (NumberFormatException e) {
                            throw new IllegalArgumentException("metric_value '" + v + "' is not a number");
                        }
                    }
                    case "extra_tags" -> {
                        for (String kv : v.split("&")) {
                            int eq = kv.indexOf('=');
                            if (eq > 0) {
                                tags.put(kv.substring(0, eq), kv.substring(eq + 1));
                            }
                        }
                    }
                    default -> {
                        if (!NOT_TAGS.contains(col) && !v.isEmpty()) {
                            tags.put(col, v);
                        }
                    }
                }
            }
            if (metric == null || metric.isEmpty() || time == null) {
                throw new IllegalArgumentException("a CSV row without metric_name or timestamp");
            }
            ObjectNode point = JSON.createObjectNode();
            point.put("type", "Point");
            point.put("metric", metric);
            ObjectNode data = point.putObject("data");
            data.put("time", time);
            data.put("value", value);
            data.set("tags", tags);
            return point;
        }

        /** A CSV timestamp (k6's timeFormat: unix, unix_milli, unix_micro, unix_nano, rfc3339) as RFC 3339. */
        static String time(String v) {
            if (v.matches("\\d+")) {
                long n = Long.parseLong(v);
                Instant t = n < 100_000_000_000L ? Instant.ofEpochSecond(n)
                        : n < 100_000_000_000_000L ? Instant.ofEpochMilli(n)
                        : n < 100_000_000_000_000_000L ? Instant.ofEpochSecond(n / 1_000_000, n % 1_000_000 * 1_000)
                        : Instant.ofEpochSecond(n / 1_000_000_000, n % 1_000_000_000);
                return t.toString();
            }
            try {
                OffsetDateTime.parse(v);
                return v;
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException("timestamp '" + v + "' is neither epoch nor RFC 3339");
            }
        }
    }
}
