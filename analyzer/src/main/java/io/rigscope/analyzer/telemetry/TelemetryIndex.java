package io.rigscope.analyzer.telemetry;

import io.rigscope.model.topic.Topic;
import io.rigscope.model.wire.Gap;
import io.rigscope.model.wire.Marker;
import io.rigscope.model.wire.WireRecord;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The telemetry one series delivered, placed on the series clock by each record's own {@code ts}: per stream,
 * its records by second (at most {@value #PER_SECOND_CAP} per stream and second, so state grows with the
 * series' seconds and its sources, never with a flood of records), its watermark (the latest {@code ts}) and its
 * resolution (the smallest gap between two of its records). Not thread-safe: the analysis thread owns it.
 */
public final class TelemetryIndex {

    /** Records kept per stream and second; more are counted but not kept. */
    public static final int PER_SECOND_CAP = 32;

    private final Map<TelemetryStream, TreeMap<Long, List<WireRecord>>> bySecond = new EnumMap<>(TelemetryStream.class);
    private final Map<TelemetryStream, Long> watermarkUs = new EnumMap<>(TelemetryStream.class);
    private final Map<TelemetryStream, Long> minGapUs = new EnumMap<>(TelemetryStream.class);
    private final Map<TelemetryStream, Long> lastTsUs = new EnumMap<>(TelemetryStream.class);
    private final Map<TelemetryStream, List<long[]>> gapsUs = new EnumMap<>(TelemetryStream.class);
    /** per stream, the most one of its records arrived behind the newest record of any stream, µs */
    private final Map<TelemetryStream, Long> lateUs = new EnumMap<>(TelemetryStream.class);
    private long overflow;

    /**
     * The most a stream's observed lateness adds to the wait for it ({@link #settled}), seconds: a polled source
     * (Performance Insights 6-16 s behind, the RDS log 0-11 s) is waited for that long, a stream that fell
     * silent for good no longer than this.
     */
    public static final int LATE_CAP_SEC = 30;

    /** Accounts a record when its topic carries telemetry; returns false (and ignores it) otherwise. */
    public boolean accept(WireRecord record) {
        var found = TelemetryStream.of(record.topic());
        if (found.isEmpty()) {
            return false;
        }
        TelemetryStream stream = found.get();
        long newest = watermarkUs();
        if (newest != Long.MIN_VALUE && newest > record.ts()) {
            lateUs.merge(stream, newest - record.ts(), Math::max);
        }
        long sec = Math.floorDiv(record.ts(), 1_000_000L);
        List<WireRecord> list = bySecond.computeIfAbsent(stream, s -> new TreeMap<>())
                .computeIfAbsent(sec, s -> new ArrayList<>(2));
        if (list.size() < PER_SECOND_CAP) {
            list.add(record);
        } else {
            overflow++;
        }
        Long last = lastTsUs.get(stream);
        if (last != null && record.ts() != last) {
            long gap = Math.abs(record.ts() - last);
            minGapUs.merge(stream, gap, Math::min);
        }
        lastTsUs.put(stream, record.ts());
        watermarkUs.merge(stream, record.ts(), Math::max);
        return true;
    }

    /**
     * Accounts a collector's {@code GAP} marker ({@link Gap}: the stream's topic and the lost span, epoch µs): the
     * stream does not cover any span that overlaps it. Returns false (and ignores it) for another marker, or a gap
     * marker without a telemetry topic or a valid span.
     */
    public boolean acceptGap(Marker marker) {
        if (!(marker.body() instanceof Gap gap) || gap.topic() == null || gap.startUs() == null
                || gap.endUs() == null || gap.endUs() < gap.startUs()) {
            return false;
        }
        var stream = Topic.byName(gap.topic()).flatMap(TelemetryStream::of);
        if (stream.isEmpty()) {
            return false;
        }
        gapsUs.computeIfAbsent(stream.get(), s -> new ArrayList<>()).add(new long[] {gap.startUs(), gap.endUs()});
        return true;
    }

    /** True when a gap marker of the stream overlaps {@code [startSec, endSec]}. */
    public boolean inGap(TelemetryStream stream, long startSec, long endSec) {
        long fromUs = startSec * 1_000_000L;
        long toUs = (endSec + 1) * 1_000_000L;
        for (long[] gap : gapsUs.getOrDefault(stream, List.of())) {
            if (gap[0] < toUs && gap[1] > fromUs) {
                return true;
            }
        }
        return false;
    }

    /** True when the stream delivered any record. */
    public boolean seen(TelemetryStream stream) {
        return watermarkUs.containsKey(stream);
    }

    /** The stream's latest record time, epoch µs, or {@link Long#MIN_VALUE} when none. */
    public long watermarkUs(TelemetryStream stream) {
        return watermarkUs.getOrDefault(stream, Long.MIN_VALUE);
    }

    /** The latest record time of any stream, epoch µs, or {@link Long#MIN_VALUE} when none. */
    public long watermarkUs() {
        long max = Long.MIN_VALUE;
        for (long w : watermarkUs.values()) {
            max = Math.max(max, w);
        }
        return max;
    }

    /** How far from a span this stream's records cover it, seconds (see {@link TelemetryStream}). */
    public int toleranceSec(TelemetryStream stream) {
        if (stream.events()) {
            return stream.maxToleranceSec();
        }
        Long gap = minGapUs.get(stream);
        long resolutionSec = gap == null ? stream.nominalResolutionSec() : Math.max(1, (gap + 999_999) / 1_000_000);
        return (int) Math.min(stream.maxToleranceSec(), Math.max(2, 2 * resolutionSec));
    }

    /** The stream's records with a timestamp in {@code [fromSec, toSec)}, in time order, of the given type. */
    public <T extends WireRecord> List<T> records(TelemetryStream stream, long fromSec, long toSec, Class<T> type) {
        TreeMap<Long, List<WireRecord>> secs = bySecond.get(stream);
        if (secs == null || toSec <= fromSec) {
            return List.of();
        }
        List<T> out = new ArrayList<>();
        for (List<WireRecord> list : secs.subMap(fromSec, true, toSec, false).values()) {
            for (WireRecord r : list) {
                if (type.isInstance(r)) {
                    out.add(type.cast(r));
                }
            }
        }
        return out;
    }

    /** The stream's records that cover {@code [startSec, endSec)}: within its tolerance of the span. */
    public <T extends WireRecord> List<T> around(TelemetryStream stream, long startSec, long endSec, Class<T> type) {
        int tol = toleranceSec(stream);
        return records(stream, startSec - tol, endSec + tol, type);
    }

    /**
     * True when the stream covered {@code [startSec, endSec)}: no gap marker of its collector overlaps the span
     * ({@link #acceptGap}); an event stream delivered any record in the series; a periodic stream has records
     * throughout the span: one within its tolerance of the span's first second, one within its tolerance of the
     * last, and no two consecutive ones in between further apart than twice the tolerance. A stream that
     * delivered the first seconds of a long episode and nothing after does not cover it.
     */
    public boolean covered(TelemetryStream stream, long startSec, long endSec) {
        if (!seen(stream) || inGap(stream, startSec, endSec)) {
            return false;
        }
        if (stream.events()) {
            return true;
        }
        TreeMap<Long, List<WireRecord>> secs = bySecond.get(stream);
        int tol = toleranceSec(stream);
        long last = Math.max(startSec, endSec - 1);
        Long first = secs.ceilingKey(startSec - tol);
        if (first == null || first > startSec + tol) {
            return false;
        }
        long previous = first;
        for (long sec : secs.subMap(first, false, last + tol, true).keySet()) {
            if (sec - previous > 2L * tol) {
                return false;
            }
            previous = sec;
        }
        return previous >= last - tol;
    }

    /**
     * The topics of the streams that did not cover {@code [startSec, endSec)}, in {@link TelemetryStream} order; CloudWatch
     * only once it delivered a record in this series (a database on its own host has none to miss).
     */
    public List<String> lacking(long startSec, long endSec) {
        List<String> out = new ArrayList<>();
        for (TelemetryStream s : TelemetryStream.values()) {
            if (s == TelemetryStream.CLOUDWATCH && !watermarkUs.containsKey(s)) {
                // only a database in the cloud has it: a series that never had one could not have had it here
                continue;
            }
            if (!covered(s, startSec, endSec)) {
                out.add(s.topic().topicName());
            }
        }
        return out;
    }

    /**
     * True when every stream seen so far has delivered what covers the time up to {@code endSec}: its watermark
     * passed {@code endSec} plus its tolerance, or (a stream that fell silent, or one that emits only on events)
     * the latest record of any stream passed that plus {@code graceSec} plus the stream's own lateness (how far
     * behind the newest record of any stream its records have arrived, at most {@link #LATE_CAP_SEC}). A live
     * analysis decides a repeat's causes only then, so a cause never depends on which stream happened to be read
     * first, and a source that delivers late by design (Performance Insights, the RDS log) is waited for.
     */
    public boolean settled(long endSec, int graceSec) {
        long any = watermarkUs();
        for (TelemetryStream s : watermarkUs.keySet()) {
            long due = (endSec + toleranceSec(s)) * 1_000_000L;
            if (s.events() || watermarkUs(s) < due) {
                if (any < due + graceSec * 1_000_000L + lateUs(s)) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * How late the stream's records have arrived: the most one of them was behind the newest record of any
     * stream when it came, capped at {@link #LATE_CAP_SEC}, µs (0 when never behind).
     */
    public long lateUs(TelemetryStream stream) {
        return Math.min(lateUs.getOrDefault(stream, 0L), LATE_CAP_SEC * 1_000_000L);
    }

    /**
     * Of these stream topics, those that had been publishing and fell silent before {@code endSec}: seen, with their
     * latest record before {@code endSec} minus their tolerance; each -> the second after its latest record, epoch s.
     * Everything read decides it (a stream's latest record), so a replay names the same second as the live run.
     */
    public Map<String, Long> silentSince(List<String> topics, long endSec) {
        Map<String, Long> out = new LinkedHashMap<>();
        for (String topic : topics) {
            var stream = Topic.byName(topic).flatMap(TelemetryStream::of);
            if (stream.isPresent() && seen(stream.get()) && !stream.get().events()) {
                long lastSec = Math.floorDiv(watermarkUs(stream.get()), 1_000_000L);
                if (lastSec + toleranceSec(stream.get()) < endSec) {
                    out.put(topic, lastSec + 1);
                }
            }
        }
        return out;
    }

    /**
     * Every periodic stream that had been publishing and fell silent more than its tolerance plus {@code graceSec}
     * before {@code endSec} (the series' last second of load): topic -> the second after its latest record, epoch s,
     * in {@link TelemetryStream} order.
     */
    public Map<String, Long> silentBefore(long endSec, int graceSec) {
        Map<String, Long> out = new LinkedHashMap<>();
        for (TelemetryStream s : TelemetryStream.values()) {
            if (seen(s) && !s.events()) {
                long lastSec = Math.floorDiv(watermarkUs(s), 1_000_000L);
                if (lastSec + toleranceSec(s) + graceSec < endSec) {
                    out.put(s.topic().topicName(), lastSec + 1);
                }
            }
        }
        return out;
    }

    /** Records not kept because their stream already had {@value #PER_SECOND_CAP} in that second. */
    public long overflow() {
        return overflow;
    }

    /**
     * The telemetry streams the analyzer follows beside the load's, and how a record of each is placed in time to
     * say whether the stream covered a span: a periodic stream covers {@code [start, end)} when it has a record
     * within {@link #toleranceSec()} of the span (its cadence plus delivery slack); an event stream (the Postgres
     * log) emits only when something happens, so it counts as present over any span once it delivered a record in
     * the series.
     *
     * <p>Tolerance: a stream's records are taken to cover {@code ±toleranceSec} around themselves, where
     * {@code toleranceSec} is twice the stream's resolution (the smallest gap seen between its records, or its
     * nominal resolution until two arrived), at least
     * 2 s and at most {@link #maxToleranceSec()}: vmstat and the canary at 1 s join within 2 s, Enhanced Monitoring
     * at 60 s within 60 s, CloudWatch within 120 s.
     */
    public enum TelemetryStream {
        /** vmstat, 1-5 s. */
        VMSTAT(Topic.VMSTAT, false, 1, 10),
        /** OS and disk metrics (local /proc or RDS Enhanced Monitoring), 1-60 s. */
        OS(Topic.OS, false, 1, 60),
        /** Active sessions by wait event (pg_stat_activity or Performance Insights), 1 s. */
        WAITS(Topic.WAITS, false, 1, 10),
        /** The DB sampler: WAL, checkpoints, WAL files, vacuum progress, table stats, 1-5 s. */
        DB(Topic.DB, false, 1, 10),
        /** Parsed Postgres log events (autovacuum, checkpoints, errors): on event. */
        PGLOG(Topic.PGLOG, true, 0, 2),
        /** The disk canary's fsync latency, 1 s. */
        CANARY(Topic.CANARY, false, 1, 10),
        /** CloudWatch datapoints, 60 s. */
        CLOUDWATCH(Topic.CLOUDWATCH, false, 60, 120),
        /** The service's process (CPU, RSS, threads, run-queue wait, stops, JVM pauses), 1 s. */
        PROCESS(Topic.PROCESS, false, 1, 10);

        private final Topic topic;
        private final boolean events;
        private final int nominalResolutionSec;
        private final int toleranceSec;

        TelemetryStream(Topic topic, boolean events, int nominalResolutionSec, int toleranceSec) {
            this.topic = topic;
            this.events = events;
            this.nominalResolutionSec = nominalResolutionSec;
            this.toleranceSec = toleranceSec;
        }

        /** The resolution assumed until two records show the stream's own, seconds (CloudWatch: its 60-s period). */
        public int nominalResolutionSec() {
            return nominalResolutionSec;
        }

        /** The topic the stream travels on. */
        public Topic topic() {
            return topic;
        }

        /** True for a stream that emits only on events (present over a span once it delivered anything). */
        public boolean events() {
            return events;
        }

        /** The most a record of this stream may lie from a span and still cover it, seconds. */
        public int maxToleranceSec() {
            return toleranceSec;
        }

        /** The stream of a topic, if the topic carries telemetry. */
        public static Optional<TelemetryStream> of(Topic topic) {
            for (TelemetryStream s : values()) {
                if (s.topic == topic) {
                    return Optional.of(s);
                }
            }
            return Optional.empty();
        }
    }
}
