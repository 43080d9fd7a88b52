package io.rigscope.importers.evidence;

import io.rigscope.importers.k6.K6Files;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.model.topic.Topic;
import io.rigscope.model.wire.Config;
import io.rigscope.model.wire.DatabaseGain;
import io.rigscope.model.wire.Environment;
import io.rigscope.model.wire.K6Threshold;
import io.rigscope.model.wire.Marker;
import io.rigscope.model.wire.RepeatEnd;
import io.rigscope.model.wire.RepeatStart;
import io.rigscope.model.wire.SeriesEnd;
import io.rigscope.model.wire.SeriesStart;
import io.rigscope.model.wire.WireRecord;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * Reads an evidence directory (docs/rescan.md) into the records a live series would have published: every file
 * recognised by its content and read with its own timestamps; the repeats from {@code manifest.json} (or one per k6
 * file), what the database gained as RECONCILIATION markers, the environment, one CONFIG. The caller publishes the
 * records and runs the analyzer on them ({@code rigscope rescan}).
 *
 * <pre>{@code
 * Rescan.Result r = new Rescan(new Rescan.Options(dir, null, null, Map.of())).read(publisher::publish);
 * }</pre>
 *
 * <p>Telemetry records carry {@code rep} 0: the analyzer places telemetry by its {@code ts} alone. Not thread-safe;
 * {@link #linesRead()} and {@link #current()} may be read from another thread for a progress line.
 */
public final class Rescan {

    /** The producer id of the markers a rescan frames the evidence with, and the source they name. */
    private static final String SOURCE = "rescan";

    /**
     * @param dir the evidence directory
     * @param series the series id, or null: the manifest's, else the first wire file's, else the directory's name
     * @param pglogPrefix the Postgres log's log_line_prefix, or null: the manifest's, else the default or RDS prefix
     * @param scenarioMap k6 scenario -> rigscope scenario, over the manifest's
     */
    public record Options(Path dir, String series, String pglogPrefix, Map<String, String> scenarioMap) {
        public Options {
            Objects.requireNonNull(dir, "dir");
            scenarioMap = Map.copyOf(scenarioMap);
        }
    }

    /**
     * What a rescan read.
     *
     * @param series the series id the records went under
     * @param files every file of the directory but the manifest, with what it gave
     * @param manifest the manifest, or {@link Manifest#none()}
     * @param recordsByTopic records handed out, by topic name
     * @param notes directory-level notes (repeats taken from files, thresholds not judged, ...)
     */
    public record Result(String series, List<FileReading> files, Manifest manifest, Map<String, Long> recordsByTopic,
                         List<String> notes) {
        public Result {
            files = List.copyOf(files);
            recordsByTopic = Map.copyOf(recordsByTopic);
            notes = List.copyOf(notes);
        }

        /** True when some file gave a record. */
        public boolean anythingRead() {
            return files.stream().anyMatch(FileReading::readable);
        }
    }

    private final Options options;
    private final WireCodec codec = new WireCodec();
    private final AtomicLong linesRead = new AtomicLong();
    private volatile Path current;
    private String series;
    private Path manifestFile;
    private Manifest manifest;
    private Map<Path, Sniffer.Sniffed> kinds;

    public Rescan(Options options) {
        this.options = Objects.requireNonNull(options, "options");
    }

    /** Lines read so far (files done, plus the current one's as of its last completed reader). */
    public long linesRead() {
        return linesRead.get();
    }

    /** The file being read, or null. */
    public Path current() {
        return current;
    }

    /**
     * The series id the records will go under, found by reading the manifest and the first lines of every file
     * (once; {@link #read} reuses it).
     *
     * @throws IllegalArgumentException when the directory or its manifest is not usable (the message names why)
     */
    public String series() throws IOException {
        if (series != null) {
            return series;
        }
        Path dir = options.dir();
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException(dir + " is not a directory");
        }
        manifestFile = dir.resolve(Manifest.FILE_NAME);
        manifest = Files.isRegularFile(manifestFile) ? Manifest.read(manifestFile) : Manifest.none();
        List<Path> paths;
        try (Stream<Path> s = Files.list(dir)) {
            paths = s.filter(Files::isRegularFile).filter(p -> !p.equals(manifestFile)).sorted().toList();
        }
        String prefix = options.pglogPrefix() != null ? options.pglogPrefix() : manifest.pglogPrefix();
        Sniffer sniffer = new Sniffer(prefix);
        kinds = new LinkedHashMap<>();
        for (Path p : paths) {
            kinds.put(p, sniffer.sniff(p));
        }
        series = seriesId(dir, manifest, kinds);
        return series;
    }

    /**
     * Reads the directory and hands every record to {@code out}.
     *
     * @throws IllegalArgumentException when the directory or its manifest is not usable (the message names why)
     * @throws IOException when a file cannot be read at all
     */
    public Result read(Consumer<WireRecord> out) throws IOException {
        String series = series();
        Manifest manifest = this.manifest;
        Map<Path, Sniffer.Sniffed> kinds = this.kinds;
        Map<String, String> scenarioMap = new LinkedHashMap<>(manifest.scenarioMap());
        scenarioMap.putAll(options.scenarioMap());

        Map<String, Long> byTopic = new TreeMap<>();
        long[] spanUs = {Long.MAX_VALUE, Long.MIN_VALUE};
        Consumer<WireRecord> counted = r -> {
            byTopic.merge(r.topic().topicName(), 1L, Long::sum);
            if (r.topic() != Topic.MARKERS) {
                spanUs[0] = Math.min(spanUs[0], r.ts());
                spanUs[1] = Math.max(spanUs[1], r.ts());
            }
            out.accept(r);
        };
        List<String> notes = new ArrayList<>();
        Map<Path, Tally> tallies = new LinkedHashMap<>();
        WireFile wire = new WireFile(series, codec);
        Path work = Files.createTempDirectory("rigscope-rescan-");
        K6Files k6 = new K6Files(manifest.repeats().stream()
                .map(r -> new K6Files.Repeat(r.rep(), Manifest.micros(r.start()), Manifest.micros(r.end()))).toList(),
                manifest.thresholds(), work);
        try {
            // wire files first: whether they carry their own repeats decides what else is published
            for (var e : ordered(kinds)) {
                Path p = e.getKey();
                Sniffer.Sniffed s = e.getValue();
                Tally tally = new Tally(p, s.kind());
                tallies.put(p, tally);
                if (s.kind() == null) {
                    tally.note(s.what());
                    continue;
                }
                current = p;
                switch (s.kind()) {
                    case WIRE -> wire.read(p, tally, counted);
                    case K6_JSON, K6_CSV -> k6.add(EvidenceText.open(p), s.kind() == EvidenceKind.K6_CSV, tally);
                    case VMSTAT -> new VmstatFile(series).read(p, tally, counted);
                    case PGLOG -> new PgLogFile(series, s.pglogPrefix()).read(p, tally, counted);
                    case ENHANCED_MONITORING -> new EnhancedMonitoringFile(series).read(p, tally, counted);
                    case PERFORMANCE_INSIGHTS -> new PerformanceInsightsFile(series).read(p, tally, counted);
                    case CLOUDWATCH -> new CloudWatchFile(series).read(p, tally, counted);
                    case DB_SAMPLER -> new DbSamplerFile(series, codec).read(p, tally, counted);
                }
                linesRead.addAndGet(tally.lines);
            }
            current = null;
            boolean ownMarkers = wire.repeatMarkers();
            if (ownMarkers && !k6.isEmpty()) {
                notes.add("a wire file carries the series' own repeats: the k6 files are not imported beside it");
            }
            if (ownMarkers) {
                gainsBesideWire(series, manifest, wire, counted, notes);
            } else {
                boolean reconciliationRequired = manifest.reconciliationRequired();
                K6Files.Imported imported = k6.publish(series, scenarioMap, reconciliationRequired, counted);
                notes.addAll(imported.problems());
                markers(series, manifest, imported, spanUs, counted, notes);
            }
        } finally {
            k6.close();
            deleteAll(work);
        }
        List<FileReading> files = tallies.values().stream().map(Tally::reading).toList();
        return new Result(series, files, manifest, byTopic, notes);
    }

    private static List<Map.Entry<Path, Sniffer.Sniffed>> ordered(Map<Path, Sniffer.Sniffed> kinds) {
        List<Map.Entry<Path, Sniffer.Sniffed>> list = new ArrayList<>(kinds.entrySet());
        list.sort(Comparator.comparing(e -> e.getValue().kind() == EvidenceKind.WIRE ? 0 : 1));
        return list;
    }

    private String seriesId(Path dir, Manifest manifest, Map<Path, Sniffer.Sniffed> kinds) throws IOException {
        if (options.series() != null) {
            return options.series();
        }
        if (manifest.series() != null) {
            return manifest.series();
        }
        for (var e : kinds.entrySet()) {
            if (e.getValue().kind() == EvidenceKind.WIRE) {
                try (BufferedReader r = EvidenceText.open(e.getKey())) {
                    String line = r.readLine();
                    String key = line == null ? "" : EvidenceText.JSON.readTree(line).path("key").asText("");
                    if (!key.isBlank()) {
                        return key;
                    }
                }
            }
        }
        Path name = dir.toAbsolutePath().normalize().getFileName();
        return name == null ? "rescan" : name.toString();
    }

    /**
     * A wire file with its own repeats: the manifest's {@code database_gained} counts for each of them that carries
     * no RECONCILIATION of its own (a series whose parts ran apart, counted afterwards), published just after the
     * repeat's REPEAT_END; a repeat that has its own keeps it.
     */
    private static void gainsBesideWire(String series, Manifest manifest, WireFile wire, Consumer<WireRecord> out,
                                        List<String> notes) {
        for (Manifest.Repeat r : manifest.repeats()) {
            if (r.gained() == null) {
                continue;
            }
            if (!wire.repeats().contains(r.rep())) {
                notes.add("repeat " + r.rep() + ": the manifest's database_gained names a repeat the wire file does "
                        + "not carry: not published");
            } else if (wire.reconciled(r.rep())) {
                notes.add("repeat " + r.rep() + ": the wire file carries its own RECONCILIATION; the manifest's "
                        + "database_gained is not published over it");
            } else {
                out.accept(new DatabaseGain(series, r.rep(), SOURCE, wire.repeatEndUs(r.rep()) + 1, r.kind(),
                        r.gained().rowsWritten(), r.gained().qtySumGained()).toMarker());
                notes.add("repeat " + r.rep() + ": database_gained from the manifest (" + r.gained().rowsWritten()
                        + " rows, Σ quantity " + r.gained().qtySumGained() + ")");
            }
        }
    }

    /** The series' markers: start, CONFIG, environment, the manifest's repeats and gains, end. */
    private static void markers(String series, Manifest manifest, K6Files.Imported imported, long[] spanUs,
                                Consumer<WireRecord> out, List<String> notes) {
        long first = spanUs[0];
        long last = spanUs[1];
        for (Manifest.Repeat r : manifest.repeats()) {
            first = Math.min(first, Manifest.micros(r.start()));
            last = Math.max(last, Manifest.micros(r.end()));
        }
        if (first == Long.MAX_VALUE) {
            return; // nothing with a time: nothing to frame
        }
        long startUs = Math.max(1, first - 10);
        out.accept(new Marker(series, 0, SOURCE, startUs, "sustained", SeriesStart.imported(SOURCE, null, null)));
        Map<String, Object> thresholds = manifest.thresholds().isEmpty() ? imported.thresholds()
                : manifest.thresholds();
        // k6 evidence: thresholds as k6 judges them (over every scenario)
        out.accept(new Marker(series, 0, SOURCE, startUs + 1, null,
                Config.imported(SOURCE, manifest.reconciliationRequired(), thresholds, manifest.analyzer())));
        if (!manifest.environment().isEmpty()) {
            out.accept(new Marker(series, 0, SOURCE, startUs + 2, null, new Environment(manifest.environment())));
        }
        if (manifest.repeats().isEmpty()) {
            notes.add(imported.repeats().size() + " repeat(s), one per k6 file; no manifest: nothing reconciles");
        }
        for (Manifest.Repeat r : manifest.repeats()) {
            long s = Manifest.micros(r.start());
            long e = Manifest.micros(r.end());
            out.accept(new Marker(series, r.rep(), SOURCE, s, r.kind(), RepeatStart.rescanned(SOURCE, (e - s) / 1000,
                    r.offeredRatePerSec(), r.batch(), r.scenarios())));
            List<K6Threshold> k6Thresholds = imported.k6Thresholds().get(r.rep());
            out.accept(new Marker(series, r.rep(), SOURCE, e, r.kind(),
                    new RepeatEnd(null, null, null, null, null, k6Thresholds, null)));
            if (r.gained() != null) {
                out.accept(new DatabaseGain(series, r.rep(), SOURCE, e + 1, r.kind(), r.gained().rowsWritten(),
                        r.gained().qtySumGained()).toMarker());
            } else {
                notes.add("repeat " + r.rep() + ": the manifest names no database_gained: it cannot reconcile");
            }
            if (!imported.repeats().containsKey(r.rep())) {
                notes.add("repeat " + r.rep() + ": no k6 point falls in it");
            }
        }
        out.accept(new Marker(series, 0, SOURCE, Math.max(last, startUs + 3) + 10, null, SeriesEnd.EMPTY));
    }

    private static void deleteAll(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException | UncheckedIOException e) {
            // a temporary directory left behind is not worth failing the rescan for
        }
    }
}
