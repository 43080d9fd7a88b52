package io.rigscope.benchmarks.analyzer;

import io.rigscope.analyzer.api.Analyzer;
import io.rigscope.analyzer.decision.Decision;
import io.rigscope.analyzer.attribution.Attributor;
import io.rigscope.analyzer.pipeline.AnalyzerInput;
import io.rigscope.analyzer.series.Progress;
import io.rigscope.model.codec.Decoded;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.model.topic.Topic;
import io.rigscope.model.wire.Verdict;
import io.rigscope.model.wire.VerdictFacts;
import io.rigscope.wire.WirePublisher;
import io.rigscope.wire.WireSource;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * The live analyzer benchmark: one repeat of an open-loop load published in real time through the broker (samples
 * at {@code ratePerSec} in SampleBatch records, each second's ledger after its samples, a health record a
 * second, and every telemetry stream at its real rate, with planted stalls: {@link LiveLoad}), while
 * {@link Analyzer#live} follows the series on the same broker and publishes its decisions to {@code rig.verdicts}
 * as {@code rigscope analyze} does.
 *
 * <p>It measures, for every second of the load: from the second's end ({@code (sec + 1) x 1 s}, on the clock that
 * stamped the samples) to the moment its final {@link Decision.Second} reaches the analyzer's subscriber, and to the
 * moment its final SECOND verdict reaches a consumer of {@code rig.verdicts}; the heap left after each garbage
 * collection ({@link HeapAfterGc}); and the samples per second the load achieved. The broker, the load's producer,
 * the analyzer and the verdict consumer share this JVM (and its CPUs): every figure includes them.
 *
 * <p>Blocking: run from a command thread. Each run uses a fresh series id.
 */
public final class LiveAnalyzerBench {

    /** The wall time between publishing the markers and the repeat's start: consumers connect and catch up. */
    private static final int CONNECT_SEC = 3;
    /**
     * A measured second that took longer than this to close means the analysis fell behind the load (the figures say
     * {@code keptUp: false}); a second of backlog at the load's end means the same.
     */
    static final long KEPT_UP_CLOSE_MS = 5_000;
    /** How long after the load's end the analysis and the verdict consumer may take to finish. */
    private static final Duration DRAIN = Duration.ofMinutes(2);

    /**
     * What to run.
     *
     * @param warmup the load's first seconds, run like the rest but timed apart (the JIT compiles the load's, the
     *     broker's and the analyzer's code): their latencies are not in the figures, their worst is reported
     * @param duration the measured time after the warm-up (whole seconds, at least 5 s)
     * @param ratePerSec samples per second (the simulated request rate), 100 to 1,000,000, all sources together
     * @param sources generators sharing the schedule, each with its own samples, ledger and health (1-64)
     * @param stallEvery one planted stall per this period (first at half of it, plus 700 ms)
     * @param stall each stall's length; zero for none; shorter than {@code stallEvery}
     * @param encoding the value format of rig.samples
     * @param attributorName names {@code attributor} in the figures
     * @param attributor the analyzer's attributor
     */
    public record Plan(Duration warmup, Duration duration, int ratePerSec, int sources, Duration stallEvery, Duration stall,
                       WireCodec.Format encoding, String attributorName, Attributor attributor) {
        public Plan {
            Objects.requireNonNull(warmup, "warmup");
            Objects.requireNonNull(duration, "duration");
            if (warmup.isNegative()) {
                throw new IllegalArgumentException("warmup must be >= 0, was " + warmup);
            }
            Objects.requireNonNull(stallEvery, "stallEvery");
            Objects.requireNonNull(stall, "stall");
            Objects.requireNonNull(encoding, "encoding");
            Objects.requireNonNull(attributorName, "attributorName");
            Objects.requireNonNull(attributor, "attributor");
            if (duration.toSeconds() < 5) {
                throw new IllegalArgumentException("duration must be at least 5 s, was " + duration);
            }
            if (ratePerSec < 100 || ratePerSec > 1_000_000) {
                throw new IllegalArgumentException("ratePerSec must be 100-1,000,000, was " + ratePerSec);
            }
            if (sources < 1 || sources > 64) {
                throw new IllegalArgumentException("sources must be 1-64, was " + sources);
            }
            if (stall.isNegative() || (!stall.isZero() && stall.compareTo(stallEvery) >= 0)) {
                throw new IllegalArgumentException("stall must be >= 0 and shorter than stallEvery (" + stallEvery
                        + "), was " + stall);
            }
        }

        /**
         * A 15 s warm-up, then 5 minutes at 25,000 samples/s from one generator, a 600 ms stall every 30 s, compact
         * samples, every attribution rule.
         */
        public static Plan defaults() {
            return new Plan(Duration.ofSeconds(15), Duration.ofMinutes(5), 25_000, 1, Duration.ofSeconds(30), Duration.ofMillis(600),
                    WirePublisher.Options.defaults().samplesFormat(), "standard", Attributor.standard());
        }

        public Plan withWarmup(Duration w) {
            return new Plan(w, duration, ratePerSec, sources, stallEvery, stall, encoding, attributorName, attributor);
        }

        public Plan withDuration(Duration d) {
            return new Plan(warmup, d, ratePerSec, sources, stallEvery, stall, encoding, attributorName, attributor);
        }

        public Plan withRatePerSec(int r) {
            return new Plan(warmup, duration, r, sources, stallEvery, stall, encoding, attributorName, attributor);
        }

        public Plan withSources(int n) {
            return new Plan(warmup, duration, ratePerSec, n, stallEvery, stall, encoding, attributorName, attributor);
        }

        public Plan withStalls(Duration every, Duration length) {
            return new Plan(warmup, duration, ratePerSec, sources, every, length, encoding, attributorName, attributor);
        }

        public Plan withEncoding(WireCodec.Format f) {
            return new Plan(warmup, duration, ratePerSec, sources, stallEvery, stall, f, attributorName, attributor);
        }

        public Plan withAttributor(String name, Attributor a) {
            return new Plan(warmup, duration, ratePerSec, sources, stallEvery, stall, encoding, name, a);
        }
    }

    /**
     * Latencies from a second's end, in milliseconds (all 0 when none was recorded).
     *
     * @param count seconds timed
     */
    public record Latency(long count, double p50Ms, double p99Ms, double maxMs) {
    }

    /**
     * Where the measured seconds' close latency went ({@link SecondPath}).
     *
     * @param published second end to the last record it waits for (every generator's ledger of it, its last sample)
     *     acknowledged by the broker to the load's producer: the load's tick, the producer's linger, the produce
     * @param publishedAfterHanded per second, published minus its ledger handed to the producer: the producer's
     *     linger and the produce round trip, without the load's own lateness
     * @param read second end to that record handed on, decoded, by the analyzer's input
     * @param readAfterPublished per second, read minus published: the consumer's fetch and poll and the decode (at
     *     least 1 µs: the consumer may read a record before its acknowledgement reaches the producer)
     * @param closedAfterRead per second, its final decision minus read: the wait for the analysis thread and the step
     */
    public record ClosePath(Latency published, Latency publishedAfterHanded, Latency read, Latency readAfterPublished, Latency closedAfterRead) {
    }

    /**
     * One of the slowest seconds to close, with the load's share.
     *
     * @param second the second, counted from the end of the warm-up (0 = the first measured)
     * @param closeMs its end to its final decision at the analyzer's subscriber
     * @param verdictMs its end to its SECOND verdict read back from rig.verdicts
     * @param ledgerLagMs its end to its ledger handed to the load's producer
     * @param publishedMs its end to its last awaited record acknowledged ({@link ClosePath#published})
     * @param readMs its end to that record handed on by the analyzer's input ({@link ClosePath#read})
     * @param hiccupMs the worst stall of the process's 1 ms sleeper from its end to its close (±1 s): time nothing
     *     in this JVM ran
     */
    public record SlowSecond(int second, double closeMs, double verdictMs, double ledgerLagMs, double publishedMs,
                             double readMs, double hiccupMs) {
    }

    /**
     * What was measured.
     *
     * @param series the series id
     * @param warmupSec the warm-up: the repeat's first seconds, timed apart
     * @param warmupCloseMaxMs the slowest of the warm-up's seconds to close (to its final decision)
     * @param durationSec the measured seconds after the warm-up
     * @param targetRatePerSec the planned rate
     * @param sources generators sharing it
     * @param samples samples published (warm-up included)
     * @param samplesPerSec samples published per second of wall time (repeat start to last batch)
     * @param samplesAnalyzed samples the analysis took in
     * @param analyzedPerSec samples the analysis took in per second over the measured time (its end: the load's)
     * @param backlogMaxSamples the most samples published and not yet taken in by the analysis, read once a second
     *     over the measured time
     * @param keptUp the analysis kept up: at the load's end it had taken in all but less than a second of the load
     *     ({@code targetRatePerSec} samples), and no measured second took more than {@value #KEPT_UP_CLOSE_MS} ms to
     *     close
     * @param telemetryRecords telemetry records published (vmstat, os, waits, db, pglog, canary, cloudwatch)
     * @param stalls planted stalls
     * @param secondClose second end to its final Decision.Second at the analyzer's subscriber (measured seconds)
     * @param secondVerdict second end to its final SECOND verdict at a consumer of rig.verdicts (measured seconds)
     * @param heapAfterGcMaxMb the most heap left after a collection, over the run; NaN when none was seen
     * @param heapAfterGcFirstMinMb the same from the start (broker and clients up) to a minute after the warm-up
     * @param heapAfterGcLastMinMb the same over the load's last minute and the collection after it
     * @param gcReadings collections seen (ZGC: cycles), the two requested ones included
     * @param gcCollectors the collectors that reported them
     * @param decisions decisions the analyzer emitted (the final SERIES included)
     * @param freezeSeconds FREEZE decisions
     * @param episodes EPISODE decisions
     * @param deadLetters records that did not decode (analyzer input and verdict consumer)
     * @param pacingLagMaxMs the latest the load's 5 ms pacing tick ran behind the wall clock
     * @param hiccupMaxMs the worst oversleep of a 1 ms sleeper thread over the repeat (jHiccup-style)
     * @param ledgerLag second end to its ledger handed to the load's producer: the load's own share of
     *     {@code secondClose}
     * @param closePath where the measured seconds' close latency went
     * @param slowest the three slowest measured seconds to close, slowest first
     * @param seriesVerdict the series report's verdict
     * @param attributor the attributor's name
     * @param encoding the samples' wire form
     */
    public record Figures(String series, int warmupSec, double warmupCloseMaxMs, int durationSec, int targetRatePerSec,
                          int sources, long samples, double samplesPerSec, long samplesAnalyzed, double analyzedPerSec,
                          long backlogMaxSamples, boolean keptUp, long telemetryRecords, int stalls, Latency secondClose,
                          Latency secondVerdict, double heapAfterGcMaxMb, double heapAfterGcFirstMinMb,
                          double heapAfterGcLastMinMb, int gcReadings, String gcCollectors, long decisions,
                          long freezeSeconds, long episodes, long deadLetters, double pacingLagMaxMs,
                          double hiccupMaxMs, Latency ledgerLag, ClosePath closePath, List<SlowSecond> slowest, String seriesVerdict, String attributor, String encoding) {
    }

    private LiveAnalyzerBench() {
    }

    /**
     * Runs the plan on a broker whose topics exist.
     *
     * @param console receives a line about once a second during the run (from a console thread)
     */
    public static Figures run(String bootstrap, Plan plan, Consumer<String> console) {
        Objects.requireNonNull(bootstrap, "bootstrap");
        Objects.requireNonNull(plan, "plan");
        Objects.requireNonNull(console, "console");
        BenchClock clock = new BenchClock();
        WireCodec codec = new WireCodec();
        String series = "bench-live-" + Long.toHexString(System.nanoTime());
        int warmupSec = (int) plan.warmup().toSeconds();
        int durationSec = (int) plan.duration().toSeconds();
        int repeatSec = warmupSec + durationSec;
        long runStartNanos = System.nanoTime();
        WirePublisher.Options loadOptions = new WirePublisher.Options(plan.encoding(), null, "rigscope-bench-load");
        try (HeapAfterGc heap = HeapAfterGc.start();
             WirePublisher loadOut = new WirePublisher(bootstrap, codec, loadOptions);
             WirePublisher analyzerOut = new WirePublisher(bootstrap, codec,
                     WirePublisher.Options.defaults().withClientId("rigscope-analyzer"))) {
            long startSec = Math.floorDiv(clock.nowUs(), 1_000_000L) + CONNECT_SEC;
            SecondPath path = new SecondPath(startSec, repeatSec);
            LiveLoad load = new LiveLoad(series, clock, loadOut, plan.ratePerSec(), plan.sources(), startSec, repeatSec,
                    plan.stallEvery().toMillis(), plan.stall().toMillis(), path);
            load.publishPreamble(Map.of("thresholds", Map.of("http_req_duration", List.of("p(99)<500"))));
            System.gc(); // a first reading: the broker and the clients up, no load yet
            HiccupProbe hiccups = new HiccupProbe(clock, startSec, repeatSec + 130);

            LatencyTrack toDecision = new LatencyTrack();
            LatencyTrack toVerdict = new LatencyTrack();
            AtomicLong decisions = new AtomicLong();
            AtomicLong freezes = new AtomicLong();
            AtomicLong episodes = new AtomicLong();
            AtomicLong deadLetters = new AtomicLong();
            AtomicReference<Progress> progress = new AtomicReference<>();
            AtomicReference<String> verdict = new AtomicReference<>("none");
            // per second of the repeat (index: second - startSec), µs; each array has one writer, read after block()
            long[] closeUsBySec = new long[repeatSec + 8];
            long[] verdictUsBySec = new long[repeatSec + 8];
            Consumer<Decoded.Failed> dlq = f -> {
                deadLetters.incrementAndGet();
                analyzerOut.publish(f.deadLetter());
            };

            // one writer per LatencyTrack: the analysis thread here, the verdict consumer's polling thread below
            // Analyzer#follow's input, with the moment each batch leaves it (decoded, handed to the analysis) noted
            Mono<Void> analysis = Analyzer.forSeries(series).withAttributor(plan.attributor())
                    .verdicts(AnalyzerInput.fromKafka(new WireSource(bootstrap, codec), series, true, dlq)
                            .doOnNext(batch -> path.read(batch, clock.nowUs())), true, progress::set, analyzerOut)
                    .doOnNext(d -> {
                        if (d instanceof Decision.Second s && !s.provisional() && s.second().exact()) {
                            long latencyUs = clock.nowUs() - s.tsUs();
                            long index = s.second().sec() - startSec;
                            if (index >= warmupSec) {
                                toDecision.record(latencyUs);
                            }
                            keep(closeUsBySec, index, latencyUs);
                        } else if (d instanceof Decision.Freeze) {
                            freezes.incrementAndGet();
                        } else if (d instanceof Decision.EpisodeFound) {
                            episodes.incrementAndGet();
                        } else if (d instanceof Decision.Series s) {
                            verdict.set(String.valueOf(s.report().verdict()));
                        }
                        decisions.incrementAndGet();
                    })
                    .then();
            Mono<Void> verdictsOnTopic = new WireSource(bootstrap, codec)
                    .batches(new WireSource.Spec(EnumSet.of(Topic.VERDICTS), series, true, true),
                            f -> deadLetters.incrementAndGet(), 256)
                    .concatMapIterable(batch -> batch)
                    .doOnNext(r -> {
                        if (r instanceof Verdict v && v.facts() instanceof VerdictFacts.Second s && s.isFinal()) {
                            long latencyUs = clock.nowUs() - v.ts();
                            long index = v.ts() / 1_000_000L - 1 - startSec;
                            if (index >= warmupSec) {
                                toVerdict.record(latencyUs);
                            }
                            keep(verdictUsBySec, index, latencyUs);
                        }
                    })
                    .takeUntil(r -> r instanceof Verdict v && v.kind() == Verdict.Kind.SERIES)
                    .then();
            Scheduler loadThread = Schedulers.newSingle("bench-load");
            Mono<Void> loadRun = Mono.fromRunnable(load::run).subscribeOn(loadThread).then();

            ScheduledExecutorService consoleThread = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "bench-console");
                t.setDaemon(true);
                return t;
            });
            long measuredFromUs = (startSec + warmupSec) * 1_000_000L;
            AtomicLong backlogMax = new AtomicLong();
            AtomicLong analyzedAtMeasuredStart = new AtomicLong(-1);
            AtomicLong analyzedAtLoadEnd = new AtomicLong(-1);
            consoleThread.scheduleAtFixedRate(() -> {
                // read the analysis' count before the load's: a backlog is never under-read
                Progress now = progress.get();
                long analyzed = now == null ? 0 : now.samples();
                long published = load.samplesPublished();
                long nowUs = clock.nowUs();
                if (nowUs >= measuredFromUs) {
                    analyzedAtMeasuredStart.compareAndSet(-1, analyzed);
                    if (nowUs < load.endUs()) {
                        backlogMax.accumulateAndGet(published - analyzed, Math::max);
                    } else {
                        analyzedAtLoadEnd.compareAndSet(-1, analyzed);
                    }
                }
                console.accept(line(clock, load, warmupSec, durationSec, now, decisions.get(),
                        toDecision.takeInterval(), toVerdict.takeInterval(), heap));
            }, 1, 1, TimeUnit.SECONDS);
            try {
                Mono.when(loadRun, analysis, verdictsOnTopic)
                        .block(plan.warmup().plus(plan.duration()).plus(Duration.ofSeconds(CONNECT_SEC)).plus(DRAIN));
            } finally {
                hiccups.close();
                consoleThread.shutdownNow();
                awaitQuietly(consoleThread);
                loadThread.dispose();
            }
            toDecision.takeInterval();
            Latency close = toDecision.total();
            toVerdict.takeInterval();
            Latency onTopic = toVerdict.total();

            int before = heap.readings().size();
            System.gc(); // a last reading: the load over, everything still open
            awaitReading(heap, before);
            long endNanos = System.nanoTime();
            long measuredStartNanos = clock.nanosOf((startSec + warmupSec) * 1_000_000L);
            long loadEndNanos = clock.nanosOf(load.endUs());
            Progress p = progress.get();
            long analyzedFrom = Math.max(0, analyzedAtMeasuredStart.get());
            long analyzedTo = analyzedAtLoadEnd.get() >= 0 ? analyzedAtLoadEnd.get() : p == null ? 0 : p.samples();
            double analyzedPerSec = (analyzedTo - analyzedFrom) / (double) durationSec;
            boolean keptUp = load.samplesPublished() - analyzedTo < plan.ratePerSec()
                    && close.maxMs() <= KEPT_UP_CLOSE_MS && close.count() >= durationSec;
            double warmupMaxMs = 0;
            for (int i = 0; i < warmupSec; i++) {
                warmupMaxMs = Math.max(warmupMaxMs, closeUsBySec[i] / 1000.0);
            }
            return new Figures(series, warmupSec, warmupMaxMs, durationSec, plan.ratePerSec(), plan.sources(),
                    load.samplesPublished(), load.samplesPerSec(), p == null ? 0 : p.samples(), analyzedPerSec,
                    backlogMax.get(), keptUp, load.telemetryRecords(), load.stalls().size(), close, onTopic,
                    mb(heap.maxBytes(runStartNanos, endNanos)),
                    mb(heap.maxBytes(runStartNanos, measuredStartNanos + 60_000_000_000L)),
                    mb(heap.maxBytes(loadEndNanos - 60_000_000_000L, endNanos)),
                    heap.readings().size(), String.join(", ", heap.collectors()), decisions.get(), freezes.get(),
                    episodes.get(), deadLetters.get(), load.pacingLagMaxUs() / 1000.0,
                    hiccups.worstUs() / 1000.0, load.ledgerLag(), path.split(closeUsBySec, warmupSec, load::ledgerLagUs),
                    slowest(closeUsBySec, verdictUsBySec, load, path, hiccups, startSec, warmupSec, 3), verdict.get(),
                    plan.attributorName(), "SampleBatch/" + plan.encoding().name().toLowerCase(Locale.ROOT));
        }
    }

    private static void keep(long[] bySec, long index, long latencyUs) {
        if (index >= 0 && index < bySec.length) {
            bySec[(int) index] = latencyUs;
        }
    }

    private static List<SlowSecond> slowest(long[] closeUs, long[] verdictUs, LiveLoad load, SecondPath path,
                                            HiccupProbe hiccups, long startSec, int warmupSec, int n) {
        List<SlowSecond> all = new java.util.ArrayList<>();
        for (int i = warmupSec; i < closeUs.length; i++) {
            if (closeUs[i] > 0) {
                long endSec = startSec + i + 1;
                long hiccupUs = hiccups.worstUs(endSec - 1, endSec + closeUs[i] / 1_000_000L);
                all.add(new SlowSecond(i - warmupSec, closeUs[i] / 1000.0, verdictUs[i] / 1000.0,
                        load.ledgerLagUs(i) / 1000.0, path.publishedAfterEndUs(i) / 1000.0,
                        path.readAfterEndUs(i) / 1000.0, hiccupUs / 1000.0));
            }
        }
        all.sort(java.util.Comparator.comparingDouble(SlowSecond::closeMs).reversed());
        return all.subList(0, Math.min(n, all.size()));
    }

    private static String line(BenchClock clock, LiveLoad load, int warmupSec, int durationSec, Progress p,
                               long decisions, Latency close, Latency onTopic, HeapAfterGc heap) {
        long atSec = Math.floorDiv(clock.nowUs(), 1_000_000L) - load.startSec() - warmupSec;
        List<HeapAfterGc.Reading> gcs = heap.readings();
        String gc = gcs.isEmpty() ? "-" : String.format(Locale.ROOT, "%.0f MB (%d GCs)",
                gcs.get(gcs.size() - 1).usedBytes() / 1048576.0, gcs.size());
        return String.format(Locale.ROOT,
                "live %s%4d/%d s  published %,d samples (%,.0f/s)  analyzed %,d  decisions %,d  freeze-s %d  "
                        + "second closed +%s ms, on rig.verdicts +%s ms  heap after GC %s",
                atSec < 0 ? "warm-up " : "", atSec, durationSec, load.samplesPublished(), load.samplesPerSec(), p == null ? 0 : p.samples(),
                decisions, p == null ? 0 : p.freezeSeconds(), close.count() == 0 ? "-" : fmt(close.maxMs()),
                onTopic.count() == 0 ? "-" : fmt(onTopic.maxMs()), gc);
    }

    private static String fmt(double ms) {
        return String.format(Locale.ROOT, "%.1f", ms);
    }

    private static double mb(OptionalLong bytes) {
        return bytes.isEmpty() ? Double.NaN : Math.round(bytes.getAsLong() / 1048576.0 * 10) / 10.0;
    }

    /** Waits up to 5 s for the notification of a requested collection (it arrives on the JVM's own thread). */
    private static void awaitReading(HeapAfterGc heap, int before) {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (heap.readings().size() <= before && System.nanoTime() - deadline < 0) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static void awaitQuietly(ScheduledExecutorService executor) {
        try {
            executor.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
