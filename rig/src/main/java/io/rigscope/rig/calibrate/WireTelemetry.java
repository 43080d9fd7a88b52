package io.rigscope.rig.calibrate;

import io.rigscope.model.codec.Decoded;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.model.wire.Canary;
import io.rigscope.model.wire.CloudWatchPoint;
import io.rigscope.model.wire.DbSample;
import io.rigscope.model.wire.Health;
import io.rigscope.model.wire.Marker;
import io.rigscope.model.wire.OsMetrics;
import io.rigscope.model.wire.PgLogEvent;
import io.rigscope.model.wire.Vmstat;
import io.rigscope.model.wire.Waits;
import io.rigscope.model.wire.WireRecord;
import io.rigscope.wire.WireFileReader;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The telemetry of one case's series, read back from its wire file: what the collectors and the generator's
 * health saw while the load ran (from the sustained repeat's REPEAT_START to its REPEAT_END, by each record's own
 * {@code ts}). The cases use it to show that their provocation happened; it draws no conclusion of its own.
 *
 * <p>Immutable once read; not thread-safe while reading.
 */
final class WireTelemetry {

    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss.SSS")
            .withZone(ZoneOffset.UTC);

    private final long fromUs;
    private final long toUs;
    private final List<Waits> waits = new ArrayList<>();
    private final List<DbSample> db = new ArrayList<>();
    private final List<PgLogEvent> log = new ArrayList<>();
    private final List<Health> health = new ArrayList<>();
    private final List<Canary> canary = new ArrayList<>();
    private final List<Vmstat> vmstat = new ArrayList<>();
    private final List<OsMetrics> os = new ArrayList<>();
    private final List<CloudWatchPoint> cloudWatch = new ArrayList<>();
    private final List<io.rigscope.model.wire.ProcessMetrics> process = new ArrayList<>();
    private final Map<String, Set<String>> sources = new TreeMap<>();

    private WireTelemetry(long fromUs, long toUs) {
        this.fromUs = fromUs;
        this.toUs = toUs;
    }

    /** Reads {@code file} (plain or gzip) for {@code series}, keeping the records inside its last repeat's load. */
    public static WireTelemetry read(Path file, String series) {
        List<WireRecord> all = new ArrayList<>();
        for (Decoded d : WireFileReader.read(file, new WireCodec()).toIterable()) {
            if (d instanceof Decoded.Ok ok && series.equals(ok.record().run())) {
                all.add(ok.record());
            }
        }
        long from = Long.MIN_VALUE;
        long to = Long.MAX_VALUE;
        for (WireRecord r : all) {
            if (r instanceof Marker m && m.kind() == Marker.Kind.REPEAT_START) {
                from = m.ts();
                to = Long.MAX_VALUE;
            } else if (r instanceof Marker m && m.kind() == Marker.Kind.REPEAT_END) {
                to = m.ts();
            }
        }
        WireTelemetry t = new WireTelemetry(from, to);
        for (WireRecord r : all) {
            t.sources.computeIfAbsent(r.topic().topicName(), k -> new TreeSet<>()).add(r.src());
            if (r instanceof CloudWatchPoint p && p.ts() + p.periodSec() * 1_000_000L > from && p.ts() <= to) {
                t.cloudWatch.add(p); // stamped with its period's start, which may precede the load
            } else if (r instanceof PgLogEvent e && e.ts() >= from) {
                t.log.add(e); // a vacuum's completion may be logged after the load ended
            } else if (r.ts() < from || r.ts() > to) {
                continue;
            } else if (r instanceof Waits w) {
                t.waits.add(w);
            } else if (r instanceof DbSample s) {
                t.db.add(s);
            } else if (r instanceof Health h) {
                t.health.add(h);
            } else if (r instanceof Canary c) {
                t.canary.add(c);
            } else if (r instanceof Vmstat v) {
                t.vmstat.add(v);
            } else if (r instanceof OsMetrics o) {
                t.os.add(o);
            } else if (r instanceof io.rigscope.model.wire.ProcessMetrics p) {
                t.process.add(p);
            }
        }
        return t;
    }

    /** {@code HH:mm:ss.SSS} UTC of epoch microseconds. */
    public static String clock(long epochUs) {
        return CLOCK.format(Instant.ofEpochSecond(Math.floorDiv(epochUs, 1_000_000L),
                Math.floorMod(epochUs, 1_000_000L) * 1000));
    }

    /** Wait samples (one a second) taken during the load. */
    public int waitSamples() {
        return waits.size();
    }

    /** Samples in which at least one session waited on {@code event} ({@code IO:WALInitWrite}). */
    public int samplesWith(String event) {
        return (int) waits.stream().filter(w -> w.load().getOrDefault(event, 0.0) > 0).count();
    }

    /** The most sessions seen on {@code event} in one sample. */
    public double maxSessions(String event) {
        return waits.stream().mapToDouble(w -> w.load().getOrDefault(event, 0.0)).max().orElse(0);
    }

    /** {@code event}'s share of all active sessions sampled during the load, 0..1. */
    public double share(String event) {
        double all = waits.stream().flatMap(w -> w.load().values().stream()).mapToDouble(Double::doubleValue).sum();
        double mine = waits.stream().mapToDouble(w -> w.load().getOrDefault(event, 0.0)).sum();
        return all == 0 ? 0 : mine / all;
    }

    /** The {@code n} wait events with the most session-samples, {@code event share%}. */
    public String topWaits(int n) {
        Map<String, Double> sum = new LinkedHashMap<>();
        waits.forEach(w -> w.load().forEach((k, v) -> sum.merge(k, v, Double::sum)));
        double all = sum.values().stream().mapToDouble(Double::doubleValue).sum();
        if (all == 0) {
            return "no active session sampled";
        }
        return sum.entrySet().stream().sorted(Map.Entry.<String, Double>comparingByValue().reversed()).limit(n)
                .map(e -> String.format(Locale.ROOT, "%s %.0f%%", e.getKey(), 100 * e.getValue() / all))
                .collect(Collectors.joining(", "));
    }

    /** WAL segment files (pg_ls_waldir) at the first and the last DB sample of the load, and the most seen. */
    public int[] walFiles() {
        List<Integer> files = db.stream().filter(s -> s.walDir() != null).map(s -> s.walDir().files()).toList();
        if (files.isEmpty()) {
            return new int[0];
        }
        return new int[] {files.get(0), files.get(files.size() - 1),
            files.stream().mapToInt(Integer::intValue).max().orElse(0)};
    }

    /** Times the WAL file count rose from one DB sample to the next. */
    public int walFileRises() {
        int rises = 0;
        Integer last = null;
        for (DbSample s : db) {
            if (s.walDir() == null) {
                continue;
            }
            if (last != null && s.walDir().files() > last) {
                rises++;
            }
            last = s.walDir().files();
        }
        return rises;
    }

    /** WAL bytes written during the load (pg_stat_wal deltas summed). */
    public long walBytes() {
        return db.stream().filter(s -> s.wal() != null).mapToLong(s -> s.wal().bytes()).sum();
    }

    /** Full-page images written during the load (pg_stat_wal deltas summed). */
    public long walFpi() {
        return db.stream().filter(s -> s.wal() != null).mapToLong(s -> s.wal().fpi()).sum();
    }

    /** DB samples that showed a vacuum of {@code table} in progress. */
    public int vacuumProgressSamples(String table) {
        return (int) db.stream().filter(s -> s.vacuums().stream().anyMatch(v -> v.table() != null
                && v.table().endsWith(table))).count();
    }

    /** The autovacuum completions logged for {@code table} from the load's start on. */
    public List<PgLogEvent> autovacuums(String table) {
        return log.stream().filter(e -> e.kind() == PgLogEvent.Kind.AUTOVACUUM && e.table() != null
                && e.table().endsWith(table)).toList();
    }

    /** The health record with the worst event-loop lag, if any. */
    public Optional<Health> worstLoopLag() {
        return health.stream().max(Comparator.comparingDouble(Health::loopLagMs));
    }

    /** The service's process record ({@code rig.process}) with the longest pause (stopped or at a safepoint), if any. */
    public Optional<io.rigscope.model.wire.ProcessMetrics> worstProcessPause() {
        return process.stream().max(Comparator.comparingDouble(io.rigscope.model.wire.ProcessMetrics::pauseMs));
    }

    /** {@code rig.process} records in the load. */
    public int processSamples() {
        return process.size();
    }

    /** The health record with the worst JVM pause, if any. */
    public Optional<Health> worstJvmPause() {
        return health.stream().max(Comparator.comparingDouble(Health::jvmPauseMs));
    }

    /** The canary's worst fsync in the load, ms, and the intervals it counted as stalled. */
    public String canary() {
        if (canary.isEmpty()) {
            return "canary: no record";
        }
        long worstUs = canary.stream().mapToLong(Canary::fsyncMaxUs).max().orElse(0);
        int stalled = canary.stream().mapToInt(Canary::stalledIntervals).sum();
        Canary at = canary.stream().max(Comparator.comparingLong(Canary::fsyncMaxUs)).orElseThrow();
        return String.format(Locale.ROOT, "canary worst fsync %.1f ms at %s, %d stalled interval(s)", worstUs / 1000.0,
                clock(at.ts()), stalled);
    }

    /**
     * The canary's worst write+fsync in the load beside the disk's share of it (its run-queue wait taken out, from
     * canaries that measure it), and the canary thread's whole run-queue wait.
     */
    public String canaryDiskShare() {
        if (canary.isEmpty()) {
            return "canary: no record";
        }
        Canary worst = canary.stream().max(Comparator.comparingLong(Canary::fsyncMaxUs)).orElseThrow();
        List<Canary> measured = canary.stream().filter(Canary::runqMeasured).toList();
        if (measured.isEmpty()) {
            return String.format(Locale.ROOT, "canary worst write+fsync %.1f ms at %s; its run-queue wait not "
                    + "measured (%s)", worst.fsyncMaxUs() / 1000.0, clock(worst.ts()),
                    worst.runqSource() == null ? "no runqSource" : worst.runqSource());
        }
        Canary disk = measured.stream().max(Comparator.comparingLong(Canary::fsyncMaxDiskUs)).orElseThrow();
        long runqUs = measured.stream().mapToLong(Canary::runqUs).sum();
        int stalled = canary.stream().mapToInt(Canary::stalledIntervals).sum();
        String worstRunq = worst.runqMeasured()
                ? String.format(Locale.ROOT, "%.1f ms of it run-queue wait", worst.fsyncMaxRunqUs() / 1000.0)
                : "its run-queue wait not measured";
        return String.format(Locale.ROOT, "canary worst write+fsync %.1f ms at %s (%s), worst disk share %.1f ms "
                        + "at %s; run-queue wait %.0f ms over %d s; %d stalled interval(s)",
                worst.fsyncMaxUs() / 1000.0, clock(worst.ts()), worstRunq, disk.fsyncMaxDiskUs() / 1000.0,
                clock(disk.ts()), runqUs / 1000.0, measured.size(), stalled);
    }

    /** The host during the load (vmstat): mean CPU idle and the longest run queue, to tell a busy machine. */
    public String host() {
        if (vmstat.isEmpty()) {
            return "vmstat: no record";
        }
        return String.format(Locale.ROOT, "host idle %.0f%% on average, run queue up to %d, wa up to %d%%",
                vmstat.stream().mapToInt(Vmstat::id).average().orElse(0),
                vmstat.stream().mapToLong(Vmstat::r).max().orElse(0),
                vmstat.stream().mapToInt(Vmstat::wa).max().orElse(0));
    }

    /**
     * The producers of each topic in the series (the whole series, not only the load), topic name -> {@code src}
     * values: which collectors delivered what ({@code rig.os -> [em@db-...]}).
     */
    public Map<String, Set<String>> sources() {
        Map<String, Set<String>> out = new TreeMap<>();
        sources.forEach((k, v) -> out.put(k, Set.copyOf(v)));
        return out;
    }

    /**
     * The disk canary and the host (vmstat), and where the series had them from an RDS instance, Enhanced
     * Monitoring's disk view and CloudWatch: the platform's side of a case's telemetry line.
     */
    public String platform() {
        StringBuilder out = new StringBuilder(canary()).append("; ").append(host());
        List<OsMetrics> em = os.stream().filter(o -> o.src().startsWith("em@")).toList();
        if (!em.isEmpty()) {
            out.append("; ").append(deviceView(em));
        }
        if (sources.containsKey("rig.cloudwatch") || !cloudWatch.isEmpty()) {
            out.append("; ").append(cloudWatch());
        }
        return out.toString();
    }

    /** The busiest device of these documents: documents, peak write IOPS, request size range, deepest queue. */
    private static String deviceView(List<OsMetrics> docs) {
        OsMetrics.DiskIO busiest = null;
        OsMetrics at = null;
        for (OsMetrics o : docs) {
            for (OsMetrics.DiskIO d : o.diskIO()) {
                if (busiest == null || d.writeIOsPS() > busiest.writeIOsPS()) {
                    busiest = d;
                    at = o;
                }
            }
        }
        if (busiest == null) {
            return "rig.os " + docs.get(0).src() + ": " + docs.size() + " documents, no device";
        }
        String device = busiest.device();
        List<OsMetrics.DiskIO> of = docs.stream().flatMap(o -> o.diskIO().stream())
                .filter(d -> d.device().equals(device)).toList();
        return String.format(Locale.ROOT, "rig.os %s: %d documents, %s write IOPS up to %.0f at %s, request "
                        + "%.1f-%.1f KB, queue up to %.1f, await up to %.1f ms", at.src(), docs.size(), device,
                busiest.writeIOsPS(), clock(at.ts()), of.stream().mapToDouble(OsMetrics.DiskIO::avgReqSz).min().orElse(0),
                of.stream().mapToDouble(OsMetrics.DiskIO::avgReqSz).max().orElse(0),
                of.stream().mapToDouble(OsMetrics.DiskIO::avgQueueLen).max().orElse(0),
                of.stream().mapToDouble(OsMetrics.DiskIO::await).max().orElse(0));
    }

    /** The CloudWatch points whose period overlaps the load, {@code metric value@HH:mm} each. */
    public String cloudWatch() {
        if (cloudWatch.isEmpty()) {
            return "rig.cloudwatch: no 60-s point over the load";
        }
        return "rig.cloudwatch " + cloudWatch.get(0).src() + ": " + cloudWatch.stream()
                .sorted(Comparator.comparing(CloudWatchPoint::metric).thenComparingLong(CloudWatchPoint::ts))
                .map(p -> String.format(Locale.ROOT, "%s %.1f@%s", p.metric(), p.value(), clock(p.ts()).substring(0, 5)))
                .collect(Collectors.joining(", "));
    }

    /** The load's span as {@code HH:mm:ss.SSS-HH:mm:ss.SSS} UTC. */
    public String span() {
        return (fromUs == Long.MIN_VALUE ? "?" : clock(fromUs)) + "-" + (toUs == Long.MAX_VALUE ? "?" : clock(toUs));
    }
}
