package io.rigscope.analyzer.bench;

import io.rigscope.analyzer.api.Analyzer;
import io.rigscope.analyzer.api.Decision;
import io.rigscope.analyzer.pipeline.AnalyzerInput;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.model.topic.Topic;
import io.rigscope.model.wire.SampleBatch;
import io.rigscope.model.wire.WireRecord;
import io.rigscope.wire.WirePublisher;
import io.rigscope.wire.WireSource;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The analyzer benchmark: publishes a synthetic series of N samples, then times in one process (a) consuming
 * rig.samples and decoding every sample with no analysis, and (b) a full replay of the series to verdicts, as many
 * rounds as asked, (a) then (b) each round, on the same published records. Blocking; run from a command thread.
 */
public final class AnalyzerBench {

    /**
     * One round: (a) then (b).
     *
     * @param rawConsumePerSec (a) samples per second consumed and decoded
     * @param replayPerSec (b) samples per second replayed to verdicts
     */
    public record Round(double rawConsumePerSec, double replayPerSec) {

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
     * @param rounds how many times to time (a) then (b) on the same records, at least 1
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
        long verdictCount = 0;
        int collections = 0;
        long afterGcPeak = -1;
        try (HeapAfterGc gcs = HeapAfterGc.start()) {
            for (int round = 1; round <= rounds; round++) {
                AtomicLong decoded = new AtomicLong();
                long a0 = System.nanoTime();
                source.batches(new WireSource.Spec(EnumSet.of(Topic.SAMPLES), series, true, false), f -> { }, 256)
                        .doOnNext(batch -> {
                            long n = 0;
                            for (WireRecord r : batch) {
                                n += ((SampleBatch) r).samples().size();
                            }
                            decoded.addAndGet(n);
                        })
                        .blockLast(Duration.ofHours(2));
                double rawSec = (System.nanoTime() - a0) / 1e9;
                if (decoded.get() != published.get()) {
                    throw new IllegalStateException("raw consume decoded " + decoded.get() + " samples of " + published.get());
                }

                heap.start();
                AtomicLong verdicts = new AtomicLong();
                long b0 = System.nanoTime();
                Decision last = Analyzer.forSeries(series)
                        .replay(AnalyzerInput.fromKafka(source, series, false, f -> { }))
                        .doOnNext(v -> verdicts.incrementAndGet())
                        .blockLast(Duration.ofHours(2));
                long b1 = System.nanoTime();
                double replaySec = (b1 - b0) / 1e9;
                heap.stop();
                if (!(last instanceof Decision.Series)) {
                    throw new IllegalStateException("the replay ended without a series verdict");
                }
                verdictCount = verdicts.get();
                for (HeapAfterGc.Reading r : gcs.readings()) {
                    if (r.atNanos() - b0 >= 0 && r.atNanos() - b1 < 0) {
                        collections++;
                        afterGcPeak = Math.max(afterGcPeak, r.usedBytes());
                    }
                }
                Round measured = new Round(published.get() / rawSec, published.get() / replaySec);
                done.add(measured);
                progress.accept(String.format(java.util.Locale.ROOT,
                        "round %d: raw consume+decode %,d samples in %.2f s (%,.0f/s); replay in %.2f s (%,.0f/s); "
                                + "ratio %.3f", round, decoded.get(), rawSec, measured.rawConsumePerSec(), replaySec,
                        measured.replayPerSec(), measured.ratio()));
            }
        }
        return new Figures(published.get(), records.get(), publishSec, done, verdictCount, heap.peakMb(),
                afterGcPeak < 0 ? Double.NaN : Math.round(afterGcPeak / 1048576.0 * 10) / 10.0, collections,
                "SampleBatch/" + options.samplesFormat().name().toLowerCase(java.util.Locale.ROOT));
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

        double peakMb() {
            return Math.round(peakBytes / 1048576.0 * 10) / 10.0;
        }
    }
}
