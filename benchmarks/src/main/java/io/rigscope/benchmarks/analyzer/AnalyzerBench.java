package io.rigscope.benchmarks.analyzer;

import io.rigscope.analyzer.synthetic.SyntheticSeries;
import io.rigscope.analyzer.api.Analyzer;
import io.rigscope.analyzer.decision.Decision;
import io.rigscope.analyzer.pipeline.AnalyzerInput;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.model.wire.SampleBatch;
import io.rigscope.model.wire.WireRecord;
import io.rigscope.wire.WirePublisher;
import io.rigscope.wire.WireSource;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import reactor.core.publisher.Flux;

/**
 * The analyzer benchmark: publishes a synthetic series of N samples, then times in one process (a) reading the
 * series as the analyzer's input reads it ({@link AnalyzerInput#fromKafka}: the same consumers, topics, slices and
 * decoding threads) and counting its samples, with no analysis, and (b) a full replay of the series to verdicts
 * through the same input, as many rounds as asked on the same published records, after one untimed warm-up round;
 * (a) then (b) in every round, so each side follows the other kind. Both are timed from the subscription to the
 * input (its consumers start there) to the end of the Flux: (a)'s end is the input's, (b)'s its SERIES verdict, after
 * the analysis has finished. Beside the rates, each round says where the time went: how long each side waited for its first batch
 * (the consumers' start-up, paid by both), how long (b)'s verdict came after its input ended (the analysis' queue and
 * {@code finish}), and the CPU time of (b)'s analysis thread. Blocking; run from a command thread.
 */
public final class AnalyzerBench {

    /**
     * One round: (a) and (b).
     *
     * @param rawConsumePerSec (a) samples per second consumed and decoded
     * @param replayPerSec (b) samples per second replayed to verdicts
     * @param rawCpuNsPerSample (a) the process' CPU time (every thread: the broker's, the GC's) per sample, ns
     * @param replayCpuNsPerSample (b) the same
     * @param rawFirstBatchMs (a) from the subscription to the input's first batch, ms
     * @param replayFirstBatchMs (b) the same
     * @param replayAfterInputMs (b) from the input's end to the SERIES verdict, ms (what the analysis still had
     *                           queued, then {@code finish}: judging the repeats, the report)
     * @param analysisCpuNsPerSample (b) the CPU time of the analysis thread alone per sample, ns
     */
    public record Round(double rawConsumePerSec, double replayPerSec, double rawCpuNsPerSample,
                        double replayCpuNsPerSample, double rawFirstBatchMs, double replayFirstBatchMs,
                        double replayAfterInputMs, double analysisCpuNsPerSample) {

        /** (b) / (a). */
        public double ratio() {
            return rawConsumePerSec == 0 ? 0 : replayPerSec / rawConsumePerSec;
        }
    }

    /**
     * What was measured.
     *
     * @param samples samples published (ingest and probe)
     * @param records sample records (batches) published
     * @param publishSec time to publish them
     * @param rounds each round's figures, in order
     * @param verdicts verdicts the (last) replay produced
     * @param heapPeakMb the highest heap use sampled (every 50 ms) during the replays, garbage included
     * @param heapAfterGcPeakMb the most heap left after a collection that ended during a replay (from the GC
     *                          notifications: {@link HeapAfterGc}); NaN when no collection ended during one
     * @param gcDuringReplays collections that ended during the replays (with ZGC: its cycles)
     * @param encoding the value format of rig.samples
     */
    public record Figures(long samples, long records, double publishSec, List<Round> rounds, long verdicts,
                          double heapPeakMb, double heapAfterGcPeakMb, int gcDuringReplays, String encoding) {

        public Figures {
            rounds = List.copyOf(rounds);
            if (rounds.isEmpty()) {
                throw new IllegalArgumentException("no round");
            }
        }

        /** (a): the median over the rounds (the mean of the middle two for an even count). */
        public double rawConsumePerSec() {
            return median(rounds.stream().mapToDouble(Round::rawConsumePerSec).toArray());
        }

        /** (b): the median over the rounds. */
        public double replayPerSec() {
            return median(rounds.stream().mapToDouble(Round::replayPerSec).toArray());
        }

        /** (b) / (a): the median of each round's own ratio (one round: its ratio). */
        public double ratio() {
            return median(rounds.stream().mapToDouble(Round::ratio).toArray());
        }

        /** (a)'s CPU per sample, ns: the median over the rounds. */
        public double rawCpuNsPerSample() {
            return median(rounds.stream().mapToDouble(Round::rawCpuNsPerSample).toArray());
        }

        /** (b)'s CPU per sample, ns: the median over the rounds. */
        public double replayCpuNsPerSample() {
            return median(rounds.stream().mapToDouble(Round::replayCpuNsPerSample).toArray());
        }

        /** (b)'s analysis thread's CPU per sample, ns: the median over the rounds. */
        public double analysisCpuNsPerSample() {
            return median(rounds.stream().mapToDouble(Round::analysisCpuNsPerSample).toArray());
        }

        /** (b)'s wait from its input's end to its SERIES verdict, ms: the median over the rounds. */
        public double replayAfterInputMs() {
            return median(rounds.stream().mapToDouble(Round::replayAfterInputMs).toArray());
        }

        private static double median(double[] values) {
            double[] v = values.clone();
            java.util.Arrays.sort(v);
            int n = v.length;
            return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
        }
    }

    private AnalyzerBench() {
    }

    /**
     * @param bootstrap the broker (its topics must exist)
     * @param samples how many ingest samples to publish (rounded up to whole seconds of the plan's rate)
     * @param ratePerSec the simulated request rate; the series lasts samples / rate seconds
     * @param encoding the value format of rig.samples
     * @param rounds how many times to time (a) and (b) on the same records, at least 1, after one untimed round
     * @param progress receives a console line about once a second, and one per round
     */
    public static Figures run(String bootstrap, long samples, int ratePerSec, WireCodec.Format encoding, int rounds,
                              Consumer<String> progress) {
        if (rounds < 1) {
            throw new IllegalArgumentException("rounds must be >= 1, was " + rounds);
        }
        WireCodec codec = new WireCodec();
        String series = "bench-" + samples + "-" + Long.toHexString(System.nanoTime());
        int durationSec = (int) Math.max(10, (samples + ratePerSec - 1) / ratePerSec);
        SyntheticSeries.Plan plan = SyntheticSeries.Plan.of(series, 1, durationSec, ratePerSec)
                .withConfig(Map.of("thresholds", Map.of("http_req_duration", List.of("p(99)<500"))))
                .withRepeat(SyntheticSeries.RepeatPlan.clean(1).withStalls(List.of(
                        new SyntheticSeries.Stall(durationSec * 250L, 400), new SyntheticSeries.Stall(durationSec * 750L, 400))));

        AtomicLong published = new AtomicLong();
        AtomicLong records = new AtomicLong();
        long t0 = System.nanoTime();
        long[] nextPrint = {t0 + 1_000_000_000L};
        WirePublisher.Options options = new WirePublisher.Options(encoding, null, "rigscope-bench");
        try (WirePublisher publisher = new WirePublisher(bootstrap, codec, options)) {
            SyntheticSeries.emit(plan, r -> {
                publisher.publish(r);
                if (r instanceof SampleBatch b) {
                    published.addAndGet(b.samples().size());
                    records.incrementAndGet();
                }
                long now = System.nanoTime();
                if (now > nextPrint[0]) {
                    nextPrint[0] = now + 1_000_000_000L;
                    progress.accept(String.format("publishing: %,d samples in %,d records (%.0f/s)", published.get(),
                            records.get(), published.get() / ((now - t0) / 1e9)));
                }
            });
            publisher.flush();
            if (publisher.failed() > 0) {
                throw new IllegalStateException(publisher.failed() + " records failed to publish: " + publisher.lastError());
            }
        }
        double publishSec = (System.nanoTime() - t0) / 1e9;

        WireSource source = new WireSource(bootstrap, codec);
        List<Round> done = new ArrayList<>();
        HeapWatch heap = new HeapWatch();
        long[] verdictCount = {0};
        int collections = 0;
        long afterGcPeak = -1;
        long expected = published.get();
        try (HeapAfterGc gcs = HeapAfterGc.start()) {
            // round 0 warms the JIT on both paths and is not counted
            for (int round = 0; round <= rounds; round++) {
                double[] raw = new double[2];
                double[] replay = new double[2];
                Phases rawPhases = new Phases();
                Phases replayPhases = new Phases();
                long[] replayWindow = new long[2];
                Runnable timeRaw = () -> {
                    long cpu0 = processCpuNanos();
                    long a0 = System.nanoTime();
                    long decoded = rawConsume(source, series, rawPhases);
                    raw[0] = (System.nanoTime() - a0) / 1e9;
                    raw[1] = processCpuNanos() - cpu0;
                    if (decoded != expected) {
                        throw new IllegalStateException("raw consume decoded " + decoded + " samples of " + expected);
                    }
                };
                Runnable timeReplay = () -> {
                    heap.start();
                    long cpu0 = processCpuNanos();
                    long b0 = System.nanoTime();
                    verdictCount[0] = replay(source, series, replayPhases);
                    long b1 = System.nanoTime();
                    replay[1] = processCpuNanos() - cpu0;
                    heap.stop();
                    replay[0] = (b1 - b0) / 1e9;
                    replayWindow[0] = b0;
                    replayWindow[1] = b1;
                };
                // always (a) then (b): every side follows the other kind. Alternating which went first put two
                // sides of one kind back to back (raw, replay | replay, raw | raw, ...), and a side that followed its
                // own kind ran slower: the rounds' ratios swung 0.64-0.99 that way against 0.80-0.86 this way
                // (docs/analyzer.md, "Replay against raw consume")
                timeRaw.run();
                timeReplay.run();
                Round measured = new Round(expected / raw[0], expected / replay[0], raw[1] / (double) expected,
                        replay[1] / (double) expected, rawPhases.firstBatchMs(), replayPhases.firstBatchMs(),
                        replayPhases.afterInputMs(), replayPhases.analysisCpuNanos / (double) expected);
                if (round == 0) {
                    heap.reset(); // neither the warm-up's heap nor its collections count
                    progress.accept(String.format(java.util.Locale.ROOT,
                            "warm-up (not counted): raw consume+decode %.2f s; replay %.2f s", raw[0], replay[0]));
                    continue;
                }
                for (HeapAfterGc.Reading r : gcs.readings()) {
                    if (r.atNanos() - replayWindow[0] >= 0 && r.atNanos() - replayWindow[1] < 0) {
                        collections++;
                        afterGcPeak = Math.max(afterGcPeak, r.usedBytes());
                    }
                }
                done.add(measured);
                progress.accept(String.format(java.util.Locale.ROOT,
                        "round %d: raw consume+decode %,d samples in %.2f s (%,.0f/s, CPU %.0f ns/sample); "
                                + "replay in %.2f s (%,.0f/s, CPU %.0f ns/sample, analysis thread %.1f); ratio %.3f; "
                                + "first batch after %.0f / %.0f ms, verdict %.0f ms after the input's end", round,
                        expected, raw[0], measured.rawConsumePerSec(), measured.rawCpuNsPerSample(), replay[0],
                        measured.replayPerSec(), measured.replayCpuNsPerSample(), measured.analysisCpuNsPerSample(),
                        measured.ratio(), measured.rawFirstBatchMs(), measured.replayFirstBatchMs(),
                        measured.replayAfterInputMs()));
            }
        }
        return new Figures(published.get(), records.get(), publishSec, done, verdictCount[0], heap.peakMb(),
                afterGcPeak < 0 ? Double.NaN : Math.round(afterGcPeak / 1048576.0 * 10) / 10.0, collections,
                "SampleBatch/" + options.samplesFormat().name().toLowerCase(java.util.Locale.ROOT));
    }

    /**
     * When a side's input started and ended (on the thread that emitted it), when the side ended, and (b)'s analysis
     * thread's CPU time.
     */
    private static final class Phases {
        private long subscribedNanos;
        private volatile long firstBatchNanos;
        private volatile long inputEndNanos;
        private volatile long endNanos;
        private volatile long analysisCpuNanos;

        /**
         * The input, timed from now (each side calls this as it starts). The same wrapping on both sides: a volatile
         * read per batch.
         */
        Flux<List<WireRecord>> timed(Flux<List<WireRecord>> input) {
            subscribedNanos = System.nanoTime();
            return input.doOnNext(batch -> {
                        if (firstBatchNanos == 0) {
                            firstBatchNanos = System.nanoTime();
                        }
                    })
                    .doOnComplete(() -> inputEndNanos = System.nanoTime());
        }

        double firstBatchMs() {
            return (firstBatchNanos - subscribedNanos) / 1e6;
        }

        double afterInputMs() {
            return (endNanos - inputEndNanos) / 1e6;
        }
    }

    /** (a): the series read as the analyzer reads it, its samples counted; returns how many. */
    private static long rawConsume(WireSource source, String series, Phases phases) {
        AtomicLong decoded = new AtomicLong();
        phases.timed(AnalyzerInput.fromKafka(source, series, false, f -> { }))
                .doOnNext(batch -> {
                    long n = 0;
                    for (WireRecord r : batch) {
                        if (r instanceof SampleBatch b) {
                            n += b.samples().size();
                        }
                    }
                    decoded.addAndGet(n);
                })
                .blockLast(Duration.ofHours(2));
        phases.endNanos = System.nanoTime();
        return decoded.get();
    }

    /** (b): a full replay to verdicts; returns how many verdicts. */
    private static long replay(WireSource source, String series, Phases phases) {
        AtomicLong verdicts = new AtomicLong();
        Decision last = Analyzer.forSeries(series)
                .replay(phases.timed(AnalyzerInput.fromKafka(source, series, false, f -> { })))
                .doOnNext(v -> {
                    verdicts.incrementAndGet();
                    if (v instanceof Decision.Series) {
                        // emitted on the analysis thread (a thread of this replay's own), after finish
                        phases.analysisCpuNanos = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
                    }
                })
                .blockLast(Duration.ofHours(2));
        phases.endNanos = System.nanoTime();
        if (!(last instanceof Decision.Series)) {
            throw new IllegalStateException("the replay ended without a series verdict");
        }
        return verdicts.get();
    }

    /** CPU time of the whole process (every thread), ns; -1 when the JVM does not tell. */
    private static long processCpuNanos() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getProcessCpuTime() : -1;
    }

    /** Samples heap use every 50 ms on a daemon thread while started; the peak is kept across starts. */
    private static final class HeapWatch {
        private final List<MemoryPoolMXBean> heapPools = new ArrayList<>();
        private volatile boolean running;
        private volatile long peakBytes;
        private Thread thread;

        HeapWatch() {
            for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
                if (pool.getType() == MemoryType.HEAP) {
                    heapPools.add(pool);
                }
            }
        }

        void start() {
            running = true;
            thread = new Thread(() -> {
                while (running) {
                    long used = 0;
                    for (MemoryPoolMXBean pool : heapPools) {
                        used += pool.getUsage().getUsed();
                    }
                    peakBytes = Math.max(peakBytes, used);
                    try {
                        Thread.sleep(50);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
            }, "bench-heap-watch");
            thread.setDaemon(true);
            thread.start();
        }

        void stop() {
            running = false;
            try {
                thread.join(1_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        /** Forgets the peak (after the warm-up round). */
        void reset() {
            peakBytes = 0;
        }

        double peakMb() {
            return Math.round(peakBytes / 1048576.0 * 10) / 10.0;
        }
    }
}
