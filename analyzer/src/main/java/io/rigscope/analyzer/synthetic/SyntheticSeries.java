package io.rigscope.analyzer.synthetic;

import io.rigscope.model.wire.Config;
import io.rigscope.model.wire.DatabaseGain;
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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * A planted series: an open-loop generator simulated on a virtual clock, with server stalls, drift, drops and a
 * read probe placed where a test or benchmark wants them. It emits what a real generator and orchestrator
 * would publish, in their order: SERIES_START, CONFIG, then per repeat REPEAT_START, sample batches and the
 * ledger of each second after that second's samples, REPEAT_END, RECONCILIATION; finally SERIES_END.
 *
 * <p>Model: requests start at {@code t0 = t1} on a fixed schedule ({@code ratePerSec}); each takes a service
 * time (base, growing linearly to {@code base x drift} over the repeat, plus seeded jitter; the probe has its
 * own random stream, so adding a probe leaves the ingest samples unchanged); a request that is
 * in the server while a stall runs ends at the stall's end plus its service time. Deterministic for a seed.
 */
public final class SyntheticSeries {

    /** A server stall, relative to its repeat's start. */
    public record Stall(long offsetMs, long lengthMs) {
    }

    /** One repeat's plan; {@code phase} is the REPEAT_START marker's phase ({@code sustained}, {@code ladder}). */
    public record RepeatPlan(int rep, List<Stall> stalls, double drift, int drops, boolean reconciles, String phase) {
        public RepeatPlan {
            stalls = List.copyOf(stalls);
            Objects.requireNonNull(phase, "phase");
        }

        /** A clean sustained repeat: no stall, no drift, no drop, reconciles. */
        public static RepeatPlan clean(int rep) {
            return new RepeatPlan(rep, List.of(), 1.0, 0, true, "sustained");
        }

        public RepeatPlan withStalls(List<Stall> s) {
            return new RepeatPlan(rep, s, drift, drops, reconciles, phase);
        }

        public RepeatPlan withDrift(double d) {
            return new RepeatPlan(rep, stalls, d, drops, reconciles, phase);
        }

        public RepeatPlan withDrops(int n) {
            return new RepeatPlan(rep, stalls, drift, n, reconciles, phase);
        }

        public RepeatPlan withReconciles(boolean r) {
            return new RepeatPlan(rep, stalls, drift, drops, r, phase);
        }

        public RepeatPlan withPhase(String p) {
            return new RepeatPlan(rep, stalls, drift, drops, reconciles, p);
        }
    }

    /**
     * The whole series.
     *
     * @param series id
     * @param startSec epoch second the first repeat starts at
     * @param durationSec each repeat's length
     * @param pauseSec cool-down between repeats
     * @param ratePerSec ingest requests per second
     * @param baseServiceUs ingest service time at the start of a repeat
     * @param jitterUs uniform extra service time in [0, jitterUs)
     * @param probeRatePerSec probe requests per second (0: no probe)
     * @param probeServiceUs probe service time
     * @param batchSize samples per SampleBatch record
     * @param config the CONFIG marker's data
     * @param repeats the repeats
     */
    public record Plan(String series, long startSec, int durationSec, int pauseSec, int ratePerSec, long baseServiceUs,
                       long jitterUs, int probeRatePerSec, long probeServiceUs, int batchSize,
                       Map<String, Object> config, List<RepeatPlan> repeats, int generators) {
        public Plan {
            Objects.requireNonNull(series, "series");
            if (generators < 1) {
                throw new IllegalArgumentException("generators must be at least 1, was " + generators);
            }
            config = new LinkedHashMap<>(config);
            repeats = List.copyOf(repeats);
        }

        /** {@code n} clean repeats of {@code durationSec} at {@code ratePerSec}, 2 ms service, no probe. */
        public static Plan of(String series, int n, int durationSec, int ratePerSec) {
            List<RepeatPlan> reps = new ArrayList<>();
            for (int i = 1; i <= n; i++) {
                reps.add(RepeatPlan.clean(i));
            }
            return new Plan(series, 1_700_000_000L, durationSec, 5, ratePerSec, 2_000, 500, 0, 0, 500,
                    Map.of(), reps, 1);
        }

        public Plan withRepeat(RepeatPlan r) {
            List<RepeatPlan> reps = new ArrayList<>(repeats);
            reps.set(r.rep() - 1, r);
            return new Plan(series, startSec, durationSec, pauseSec, ratePerSec, baseServiceUs, jitterUs,
                    probeRatePerSec, probeServiceUs, batchSize, config, reps, generators);
        }

        public Plan withProbe(int ratePerSec, long serviceUs) {
            return new Plan(series, startSec, durationSec, pauseSec, this.ratePerSec, baseServiceUs, jitterUs,
                    ratePerSec, serviceUs, batchSize, config, repeats, generators);
        }

        public Plan withConfig(Map<String, Object> c) {
            return new Plan(series, startSec, durationSec, pauseSec, ratePerSec, baseServiceUs, jitterUs,
                    probeRatePerSec, probeServiceUs, batchSize, c, repeats, generators);
        }

        public Plan withBatchSize(int n) {
            return new Plan(series, startSec, durationSec, pauseSec, ratePerSec, baseServiceUs, jitterUs,
                    probeRatePerSec, probeServiceUs, n, config, repeats, generators);
        }

        /**
         * The same requests offered by {@code n} generators, as {@code generate --share K/N} does: request i of each
         * scenario is generator {@code gen-(i mod n + 1)}'s, each generator publishes its own samples and ledger, and
         * the REPEAT_START says {@code generators: n}.
         */
        public Plan withGenerators(int n) {
            return new Plan(series, startSec, durationSec, pauseSec, ratePerSec, baseServiceUs, jitterUs,
                    probeRatePerSec, probeServiceUs, batchSize, config, repeats, n);
        }

        /** Ingest samples the plan produces (without the probe and without drops). */
        public long ingestSamples() {
            return (long) repeats.size() * durationSec * ratePerSec;
        }
    }

    private static final String GEN = "gen-1";
    private static final String INGEST = "ingest";
    private static final String PROBE = "probe";

    private SyntheticSeries() {
    }

    /** Emits the plan's records, in publication order. */
    public static void emit(Plan plan, Consumer<WireRecord> out) {
        String id = plan.series();
        long tsUs = plan.startSec() * 1_000_000L - 10_000_000L;
        out.accept(new Marker(id, 0, "orchestrator", tsUs, "sustained", SeriesStart.EMPTY));
        out.accept(new Marker(id, 0, "orchestrator", tsUs + 1, null, new Config(plan.config())));
        long repStartSec = plan.startSec();
        long lastUs = tsUs;
        for (RepeatPlan r : plan.repeats()) {
            long startUs = repStartSec * 1_000_000L;
            out.accept(new Marker(id, r.rep(), "orchestrator", startUs, r.phase(), RepeatStart.ofDurationSec(
                    plan.durationSec(), plan.generators() == 1 ? null : plan.generators())));
            long sentQty = emitRepeat(plan, r, startUs, out);
            long endUs = startUs + plan.durationSec() * 1_000_000L + 5_000_000L;
            out.accept(new Marker(id, r.rep(), "orchestrator", endUs, r.phase(), RepeatEnd.EMPTY));
            // every ingest request carries one event of quantity 1: the database gains one row and 1 per 2xx
            out.accept(new DatabaseGain(id, r.rep(), "orchestrator", endUs + 1, null,
                    r.reconciles() ? sentQty : sentQty - 1, sentQty).toMarker());
            repStartSec += plan.durationSec() + plan.pauseSec() + 5;
            lastUs = endUs + 2;
        }
        out.accept(new Marker(id, 0, "orchestrator", lastUs + 1, null, SeriesEnd.EMPTY));
    }

    /** Emits one repeat's samples and ledger; returns the events sent (one per successful request). */
    private static long emitRepeat(Plan plan, RepeatPlan r, long startUs, Consumer<WireRecord> out) {
        SplittableRandom random = new SplittableRandom(31L * r.rep() + 7);
        SplittableRandom probeRandom = new SplittableRandom(37L * r.rep() + 11);
        long durationUs = plan.durationSec() * 1_000_000L;
        // per generator (gen-1 alone unless the plan shares the schedule): samples by second of end, ledger counts
        List<TreeMap<Long, List<Sample>>> bySec = new ArrayList<>();
        List<Map<String, Map<Long, long[]>>> ledger = new ArrayList<>();
        for (int g = 0; g < plan.generators(); g++) {
            bySec.add(new TreeMap<>());
            ledger.add(new HashMap<>());
        }
        long horizonUs = 3_000_000L + r.stalls().stream().mapToLong(s -> s.lengthMs() * 1000).max().orElse(0);
        long intervalNs = 1_000_000_000L / plan.ratePerSec();
        long probeIntervalNs = plan.probeRatePerSec() == 0 ? Long.MAX_VALUE : 1_000_000_000L / plan.probeRatePerSec();
        long count = (long) plan.ratePerSec() * plan.durationSec();
        long probeCount = plan.probeRatePerSec() == 0 ? 0 : (long) plan.probeRatePerSec() * plan.durationSec();
        long dropEvery = r.drops() == 0 ? Long.MAX_VALUE : Math.max(1, count / (r.drops() + 1));
        long dropsLeft = r.drops();
        long sent = 0;
        long i = 0;
        long p = 0;
        while (i < count || p < probeCount) {
            long ingestT0 = i < count ? startUs + i * intervalNs / 1000 : Long.MAX_VALUE;
            long probeT0 = p < probeCount ? startUs + p * probeIntervalNs / 1000 + 137 : Long.MAX_VALUE;
            boolean probe = probeT0 < ingestT0;
            long t0 = probe ? probeT0 : ingestT0;
            String scenario = probe ? PROBE : INGEST;
            long sec0 = Math.floorDiv(t0, 1_000_000L);
            int g = (int) ((probe ? p : i) % plan.generators());
            long[] l0 = ledger.get(g).computeIfAbsent(scenario, s -> new HashMap<>())
                    .computeIfAbsent(sec0, s -> new long[4]);
            l0[0]++;
            if (!probe && dropsLeft > 0 && i > 0 && i % dropEvery == 0) {
                dropsLeft--;
                l0[2]++;
            } else {
                l0[1]++;
                long serviceUs;
                if (probe) {
                    serviceUs = plan.probeServiceUs() + probeRandom.nextLong(Math.max(1, plan.jitterUs()));
                } else {
                    double progress = (double) (t0 - startUs) / durationUs;
                    serviceUs = Math.round(plan.baseServiceUs() * (1 + (r.drift() - 1) * progress))
                            + random.nextLong(Math.max(1, plan.jitterUs()));
                }
                long t2 = t0 + serviceUs;
                for (Stall s : r.stalls()) {
                    long a = startUs + s.offsetMs() * 1000;
                    long b = a + s.lengthMs() * 1000;
                    if (t0 < b && t2 > a) {
                        t2 = Math.max(t2, b + serviceUs);
                    }
                }
                Sample sample = new Sample(scenario, t0, t0, t2, 201, ErrorKind.NONE, 1, 1, 180);
                bySec.get(g).computeIfAbsent(Math.floorDiv(t2, 1_000_000L), s -> new ArrayList<>()).add(sample);
                ledger.get(g).get(scenario).computeIfAbsent(Math.floorDiv(t2, 1_000_000L), s -> new long[4])[3]++;
                if (!probe) {
                    sent++;
                }
            }
            if (probe) {
                p++;
            } else {
                i++;
            }
            for (int k = 0; k < plan.generators(); k++) {
                flush(plan, r.rep(), generator(plan, k), bySec.get(k), ledger.get(k), t0 - horizonUs, false, out);
            }
        }
        for (int k = 0; k < plan.generators(); k++) {
            flush(plan, r.rep(), generator(plan, k), bySec.get(k), ledger.get(k), Long.MAX_VALUE, true, out);
        }
        return sent;
    }

    /** The src of generator {@code k} (0-based): {@code gen-1} alone, {@code gen-(k+1)} when shared. */
    private static String generator(Plan plan, int k) {
        return plan.generators() == 1 ? GEN : "gen-" + (k + 1);
    }

    /** Publishes one generator's samples and then its ledgers of every second before {@code beforeUs}. */
    private static void flush(Plan plan, int rep, String gen, TreeMap<Long, List<Sample>> bySec,
                              Map<String, Map<Long, long[]>> ledger, long beforeUs, boolean last,
                              Consumer<WireRecord> out) {
        long beforeSec = beforeUs == Long.MAX_VALUE ? Long.MAX_VALUE : Math.floorDiv(beforeUs, 1_000_000L);
        while (!bySec.isEmpty() && bySec.firstKey() < beforeSec) {
            var e = bySec.pollFirstEntry();
            List<Sample> samples = e.getValue();
            for (int from = 0; from < samples.size(); from += plan.batchSize()) {
                List<Sample> part = samples.subList(from, Math.min(samples.size(), from + plan.batchSize()));
                out.accept(new SampleBatch(plan.series(), rep, gen, part.get(part.size() - 1).t2(), part));
            }
        }
        for (String scenario : new String[] {INGEST, PROBE}) {
            Map<Long, long[]> secs = ledger.get(scenario);
            if (secs == null) {
                continue;
            }
            List<Long> due = secs.keySet().stream().filter(s -> s < beforeSec).sorted().toList();
            for (int k = 0; k < due.size(); k++) {
                long sec = due.get(k);
                long[] c = secs.remove(sec);
                boolean isLast = last && k == due.size() - 1;
                out.accept(new Ledger(plan.series(), rep, gen, (sec + 1) * 1_000_000L, scenario, sec, c[0], c[1], c[2],
                        c[3], isLast));
            }
        }
    }
}
