package io.rigscope.rig.cli;

import io.rigscope.analyzer.bench.AnalyzerBench;
import io.rigscope.analyzer.bench.LiveAnalyzerBench;
import io.rigscope.localenv.kafka.EmbeddedKafka;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.rig.options.Durations;
import io.rigscope.rig.options.ExitCodes;
import io.rigscope.rig.options.UsageException;
import io.rigscope.wire.WirePublisher;
import io.rigscope.wire.kafka.TopicAdmin;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code rigscope bench analyzer}: raw consume+decode vs full replay to verdicts, and the heap; with
 * {@code --live}, the live path in real time: second-close latency and the heap after GC.
 */
@Command(name = "analyzer", mixinStandardHelpOptions = true,
        description = {"Publish N synthetic samples, then time (a) reading the series as the analyzer's input reads it "
            + "(same consumers, topics and decoding) and counting every sample and (b) a full replay of the series to "
            + "verdicts (--rounds: N times after a warm-up round, medians printed). Prints samples, raw_consume_per_s, "
            + "replay_per_s, ratio (b/a), the process' CPU ns per sample of each, heap_peak_mb and heap_after_gc_peak_mb "
            + "(the most heap left after a collection that ended during (b)). Targets: replay >= 1,000,000 samples/s, "
            + "ratio >= 0.9, heap flat and < 512 MB for 30M samples.",
            "--live: publish a load in real time for --warmup + --duration (samples at --rate in SampleBatch records, "
            + "ledger and health each second, every telemetry stream at its real rate, a --stall every --stall-every) "
            + "while the analyzer follows it live, with every attribution rule, and publishes to rig.verdicts. Prints "
            + "samples_per_s, second_close_latency_p99_ms (second end -> its final SECOND decision), "
            + "second_verdict_latency_p99_ms (-> its SECOND verdict read back from rig.verdicts) and "
            + "heap_after_gc_max_mb (+ first/last minute), analyzed_per_s and kept_up (false: the analysis took in "
            + "analyzed_per_s of the rate). Targets: p99 <= 500 ms, heap after GC <= 512 MB and flat.",
            "Uses a fresh embedded broker in a temporary directory unless --bootstrap."})
final class BenchAnalyzerCommand implements Callable<Integer> {

    @Option(names = "--samples", paramLabel = "N", description = "Ingest samples to publish (default 10,000,000: shorter runs mostly time the JIT warming up). Not with --live.")
    Long samples;

    @Option(names = "--rate", paramLabel = "PER_S", description = "Simulated request rate (default 50,000/s; --live: 25,000/s).")
    Integer ratePerSec;

    @Option(names = "--rounds", paramLabel = "N", description = "Time (a) and (b) N times on the same published records "
            + "(default 1), after one untimed warm-up round, (a) then (b) in each; the figures are "
            + "the medians over the rounds, each round also printed. Not with --live.")
    Integer rounds;

    @Option(names = "--live", description = "Measure the live path in real time (see above).")
    boolean live;

    @Option(names = "--sources", paramLabel = "N", description = "--live: N generators share the --rate (each rate/N, "
            + "its own samples, ledger and health; default 1).")
    Integer sources;

    @Option(names = "--duration", paramLabel = "DURATION", description = "--live: how long the load runs (default 5m, at least 5s).")
    Duration duration;

    @Option(names = "--warmup", paramLabel = "DURATION", description = "--live: load before the measured --duration, timed apart (default 15s; 0 for none).")
    Duration warmup;

    @Option(names = "--stall", paramLabel = "DURATION", description = "--live: each planted server stall (default 600ms; 0 for none).")
    Duration stall;

    @Option(names = "--stall-every", paramLabel = "DURATION", description = "--live: one stall per this period (default 30s).")
    Duration stallEvery;

    @Option(names = "--encoding", paramLabel = "FORMAT",
            description = "Value format of rig.samples: ${COMPLETION-CANDIDATES} (default: the publisher's default, ${DEFAULT-VALUE}).")
    WireCodec.Format encoding = WirePublisher.Options.defaults().samplesFormat();

    @Option(names = "--json", description = "Print one JSON object.")
    boolean json;

    @Option(names = "--bootstrap", paramLabel = "HOST:PORT", description = "Use this cluster instead of a fresh broker.")
    String bootstrap;

    @Override
    public Integer call() throws IOException {
        LiveAnalyzerBench.Plan livePlan = live ? livePlan() : null;
        if (live && rounds != null) {
            throw new UsageException("--rounds does not apply to --live");
        }
        if (!live) {
            if (duration != null || warmup != null || stall != null || stallEvery != null || sources != null) {
                throw new UsageException("--duration, --warmup, --stall, --stall-every and --sources need --live");
            }
            if (samples == null) {
                samples = 10_000_000L;
            }
            if (rounds == null) {
                rounds = 1;
            }
            if (rounds < 1 || rounds > 100) {
                throw new UsageException("--rounds must be 1-100, was " + rounds);
            }
            if (ratePerSec == null) {
                ratePerSec = 50_000;
            }
            if (samples < 1_000) {
                throw new UsageException("--samples must be >= 1000, was " + samples);
            }
            if (ratePerSec < 100) {
                throw new UsageException("--rate must be >= 100, was " + ratePerSec);
            }
        }
        Path dir = null;
        EmbeddedKafka broker = null;
        try {
            String servers = bootstrap;
            if (servers == null) {
                dir = Files.createTempDirectory("rigscope-bench-");
                broker = EmbeddedKafka.start(dir, 0);
                servers = broker.bootstrap();
            }
            try (TopicAdmin admin = new TopicAdmin(servers)) {
                admin.ensureTopics();
            }
            if (live) {
                printLive(LiveAnalyzerBench.run(servers, livePlan, line -> System.err.println("bench: " + line)));
                return ExitCodes.OK;
            }
            AnalyzerBench.Figures f = AnalyzerBench.run(servers, samples, ratePerSec, encoding, rounds,
                    line -> System.err.println("bench: " + line));
            if (json) {
                List<FiguresJson> each = new ArrayList<>();
                for (AnalyzerBench.Round r : f.rounds()) {
                    each.add(new FiguresJson().fixed("raw_consume_per_s", r.rawConsumePerSec(), 0)
                            .fixed("replay_per_s", r.replayPerSec(), 0).fixed("ratio", r.ratio(), 3)
                            .fixed("raw_cpu_ns_per_sample", r.rawCpuNsPerSample(), 1)
                            .fixed("replay_cpu_ns_per_sample", r.replayCpuNsPerSample(), 1)
                            .fixed("analysis_cpu_ns_per_sample", r.analysisCpuNsPerSample(), 1)
                            .fixed("raw_first_batch_ms", r.rawFirstBatchMs(), 1)
                            .fixed("replay_first_batch_ms", r.replayFirstBatchMs(), 1)
                            .fixed("replay_after_input_ms", r.replayAfterInputMs(), 1));
                }
                System.out.println(new FiguresJson().put("samples", f.samples())
                        .fixed("raw_consume_per_s", f.rawConsumePerSec(), 0).fixed("replay_per_s", f.replayPerSec(), 0)
                        .fixed("ratio", f.ratio(), 3)
                        .fixed("raw_cpu_ns_per_sample", f.rawCpuNsPerSample(), 1)
                        .fixed("replay_cpu_ns_per_sample", f.replayCpuNsPerSample(), 1)
                        .fixed("analysis_cpu_ns_per_sample", f.analysisCpuNsPerSample(), 1)
                        .fixed("replay_after_input_ms", f.replayAfterInputMs(), 1)
                        .fixed("heap_peak_mb", f.heapPeakMb(), 1)
                        .fixed("heap_after_gc_peak_mb", f.heapAfterGcPeakMb(), 1)
                        .put("gc_during_replay", f.gcDuringReplays()).put("rounds", each).put("records", f.records())
                        .fixed("publish_s", f.publishSec(), 1).put("verdicts", f.verdicts())
                        .put("encoding", f.encoding()).put("max_heap_mb", Runtime.getRuntime().maxMemory() / 1048576)
                        .put("gc", collectors())
                        .put("cpus", Runtime.getRuntime().availableProcessors()).toJson());
            } else {
                System.out.printf(Locale.ROOT, "samples            %,d (%,d records, %s, published in %.1f s)%n",
                        f.samples(), f.records(), f.encoding(), f.publishSec());
                String median = f.rounds().size() > 1 ? "  (median of " + f.rounds().size() + " rounds)" : "";
                System.out.printf(Locale.ROOT, "raw_consume_per_s  %,.0f%s%n", f.rawConsumePerSec(), median);
                System.out.printf(Locale.ROOT, "replay_per_s       %,.0f  (%,d verdicts)%s%n", f.replayPerSec(), f.verdicts(), median);
                System.out.printf(Locale.ROOT, "ratio              %.3f%s%n", f.ratio(), median);
                System.out.printf(Locale.ROOT, "cpu_ns_per_sample  raw %.1f, replay %.1f  (the whole process' CPU time / samples)%s%n",
                        f.rawCpuNsPerSample(), f.replayCpuNsPerSample(), median);
                System.out.printf(Locale.ROOT, "analysis_cpu       %.1f ns/sample  (the replay's analysis thread alone)%s%n",
                        f.analysisCpuNsPerSample(), median);
                System.out.printf(Locale.ROOT, "replay_after_input %.1f ms  (from the input's end to the SERIES verdict)%s%n",
                        f.replayAfterInputMs(), median);
                System.out.printf(Locale.ROOT, "heap_peak_mb       %.1f, after GC %s  (max heap %d MB)%n", f.heapPeakMb(),
                        Double.isNaN(f.heapAfterGcPeakMb()) ? "none (no collection ended during a replay)"
                                : String.format(Locale.ROOT, "%.1f (the most left after one of the %d collections that "
                                        + "ended during the replays)", f.heapAfterGcPeakMb(), f.gcDuringReplays()),
                        Runtime.getRuntime().maxMemory() / 1048576);
                System.out.printf(Locale.ROOT, "gc                 %s  (%d CPUs)%n", collectors(),
                        Runtime.getRuntime().availableProcessors());
            }
            return ExitCodes.OK;
        } finally {
            if (broker != null) {
                broker.close();
            }
            if (dir != null) {
                try (Stream<Path> files = Files.walk(dir)) {
                    files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                }
            }
        }
    }

    private LiveAnalyzerBench.Plan livePlan() {
        if (samples != null) {
            throw new UsageException("--samples does not apply to --live (it runs for --duration at --rate)");
        }
        Duration length = duration == null ? Duration.ofMinutes(5) : duration;
        Duration warm = warmup == null ? Duration.ofSeconds(15) : warmup;
        Duration stallLength = stall == null ? Duration.ofMillis(600) : stall;
        Duration every = Durations.positive("--stall-every", stallEvery == null ? Duration.ofSeconds(30) : stallEvery);
        int rate = ratePerSec == null ? 25_000 : ratePerSec;
        if (length.toSeconds() < 5) {
            throw new UsageException("--duration must be at least 5s, was " + Durations.text(length));
        }
        if (rate < 100 || rate > 1_000_000) {
            throw new UsageException("--rate must be 100-1000000 with --live, was " + rate);
        }
        int n = sources == null ? 1 : sources;
        if (n < 1 || n > 64) {
            throw new UsageException("--sources must be 1-64, was " + n);
        }
        if (rate / n < 100) {
            throw new UsageException("--rate / --sources must be at least 100 per source, was " + rate + " / " + n);
        }
        if (!stallLength.isZero() && stallLength.compareTo(every) >= 0) {
            throw new UsageException("--stall must be shorter than --stall-every, was " + Durations.text(stallLength) + " every " + Durations.text(every));
        }
        return LiveAnalyzerBench.Plan.defaults().withWarmup(warm).withDuration(length).withRatePerSec(rate)
                .withSources(n).withStalls(every, stallLength).withEncoding(encoding);
    }

    private void printLive(LiveAnalyzerBench.Figures f) {
        LiveAnalyzerBench.Latency close = f.secondClose();
        LiveAnalyzerBench.Latency onTopic = f.secondVerdict();
        LiveAnalyzerBench.ClosePath path = f.closePath();
        long maxHeapMb = Runtime.getRuntime().maxMemory() / 1048576;
        int cpus = Runtime.getRuntime().availableProcessors();
        if (json) {
            System.out.println(new FiguresJson().put("mode", "live").put("warmup_s", f.warmupSec())
                    .fixed("warmup_second_close_latency_max_ms", f.warmupCloseMaxMs(), 3)
                    .put("duration_s", f.durationSec()).put("rate_target_per_s", f.targetRatePerSec())
                    .put("sources", f.sources())
                    .put("samples", f.samples()).fixed("samples_per_s", f.samplesPerSec(), 1)
                    .put("samples_analyzed", f.samplesAnalyzed()).fixed("analyzed_per_s", f.analyzedPerSec(), 1)
                    .put("backlog_max_samples", f.backlogMaxSamples()).put("kept_up", f.keptUp())
                    .put("telemetry_records", f.telemetryRecords())
                    .put("stalls", f.stalls())
                    .fixed("second_close_latency_p50_ms", close.p50Ms(), 3)
                    .fixed("second_close_latency_p99_ms", close.p99Ms(), 3)
                    .fixed("second_close_latency_max_ms", close.maxMs(), 3).put("seconds_timed", close.count())
                    .fixed("second_verdict_latency_p50_ms", onTopic.p50Ms(), 3)
                    .fixed("second_verdict_latency_p99_ms", onTopic.p99Ms(), 3)
                    .fixed("second_verdict_latency_max_ms", onTopic.maxMs(), 3).put("verdicts_timed", onTopic.count())
                    .fixed("heap_after_gc_max_mb", f.heapAfterGcMaxMb(), 1)
                    .fixed("heap_after_gc_first_min_mb", f.heapAfterGcFirstMinMb(), 1)
                    .fixed("heap_after_gc_last_min_mb", f.heapAfterGcLastMinMb(), 1)
                    .put("gc_readings", f.gcReadings()).put("gc_collectors", f.gcCollectors())
                    .put("decisions", f.decisions()).put("freeze_seconds", f.freezeSeconds())
                    .put("episodes", f.episodes()).put("dead_letters", f.deadLetters())
                    .fixed("pacing_lag_max_ms", f.pacingLagMaxMs(), 3).fixed("hiccup_max_ms", f.hiccupMaxMs(), 3)
                    .fixed("ledger_lag_p50_ms", f.ledgerLag().p50Ms(), 3).fixed("ledger_lag_p99_ms", f.ledgerLag().p99Ms(), 3)
                    .fixed("published_lag_p50_ms", path.published().p50Ms(), 3)
                    .fixed("published_lag_p99_ms", path.published().p99Ms(), 3)
                    .fixed("published_after_handed_p50_ms", path.publishedAfterHanded().p50Ms(), 3)
                    .fixed("published_after_handed_p99_ms", path.publishedAfterHanded().p99Ms(), 3)
                    .fixed("read_lag_p50_ms", path.read().p50Ms(), 3).fixed("read_lag_p99_ms", path.read().p99Ms(), 3)
                    .fixed("read_after_published_p50_ms", path.readAfterPublished().p50Ms(), 3)
                    .fixed("read_after_published_p99_ms", path.readAfterPublished().p99Ms(), 3)
                    .fixed("closed_after_read_p50_ms", path.closedAfterRead().p50Ms(), 3)
                    .fixed("closed_after_read_p99_ms", path.closedAfterRead().p99Ms(), 3)
                    .put("slowest_seconds", slowestJson(f))
                    .put("series_verdict", f.seriesVerdict()).put("attributor", f.attributor())
                    .put("encoding", f.encoding()).put("max_heap_mb", maxHeapMb).put("cpus", cpus).toJson());
            return;
        }
        System.out.printf(Locale.ROOT, "samples                      %,d in %d + %d s at %,.1f/s (target %,d/s from %d source(s); %,d analyzed)%n",
                f.samples(), f.warmupSec(), f.durationSec(), f.samplesPerSec(), f.targetRatePerSec(), f.sources(), f.samplesAnalyzed());
        System.out.printf(Locale.ROOT, "kept_up                      %s: analyzed %,.1f samples/s over the measured time, backlog at most %,d samples%n",
                f.keptUp() ? "yes" : "NO, fell behind", f.analyzedPerSec(), f.backlogMaxSamples());
        System.out.printf(Locale.ROOT, "telemetry                    %,d records, %d planted stalls%n", f.telemetryRecords(), f.stalls());
        System.out.printf(Locale.ROOT, "second_close_latency         p50 %.1f  p99 %.1f  max %.1f ms (%d seconds; warm-up max %.1f ms)%n",
                close.p50Ms(), close.p99Ms(), close.maxMs(), close.count(), f.warmupCloseMaxMs());
        System.out.printf(Locale.ROOT, "second_verdict_latency       p50 %.1f  p99 %.1f  max %.1f ms (rig.verdicts, %d seconds)%n",
                onTopic.p50Ms(), onTopic.p99Ms(), onTopic.maxMs(), onTopic.count());
        System.out.printf(Locale.ROOT, "ledger_lag                   p50 %.1f  p99 %.1f  max %.1f ms (second end -> its ledger sent: the load's share)%n",
                f.ledgerLag().p50Ms(), f.ledgerLag().p99Ms(), f.ledgerLag().maxMs());
        System.out.printf(Locale.ROOT, "close_path                   p50 / p99 ms from the second's end: its last awaited record acknowledged %.1f / %.1f (%.1f / %.1f after its ledger was handed to the producer), read %.1f / %.1f; per second read after acknowledged %.1f / %.1f, closed after read %.1f / %.1f%n",
                path.published().p50Ms(), path.published().p99Ms(), path.publishedAfterHanded().p50Ms(),
                path.publishedAfterHanded().p99Ms(), path.read().p50Ms(), path.read().p99Ms(),
                path.readAfterPublished().p50Ms(), path.readAfterPublished().p99Ms(), path.closedAfterRead().p50Ms(),
                path.closedAfterRead().p99Ms());
        for (LiveAnalyzerBench.SlowSecond s : f.slowest()) {
            System.out.printf(Locale.ROOT, "slow second                  +%d s: closed +%.1f ms, verdict +%.1f ms, its ledger sent +%.1f ms, acknowledged +%.1f ms, read +%.1f ms, JVM hiccup %.1f ms%n",
                    s.second(), s.closeMs(), s.verdictMs(), s.ledgerLagMs(), s.publishedMs(), s.readMs(), s.hiccupMs());
        }
        System.out.printf(Locale.ROOT, "heap_after_gc                max %s MB, first minute %s MB, last minute %s MB (%d GCs: %s; max heap %d MB)%n",
                oneDecimalOrNull(f.heapAfterGcMaxMb()), oneDecimalOrNull(f.heapAfterGcFirstMinMb()), oneDecimalOrNull(f.heapAfterGcLastMinMb()),
                f.gcReadings(), f.gcCollectors(), maxHeapMb);
        System.out.printf(Locale.ROOT, "decisions                    %,d (freeze-seconds %d, episodes %d), dead letters %d, series %s%n",
                f.decisions(), f.freezeSeconds(), f.episodes(), f.deadLetters(), f.seriesVerdict());
    }

    private static List<FiguresJson> slowestJson(LiveAnalyzerBench.Figures f) {
        List<FiguresJson> slowest = new ArrayList<>();
        for (LiveAnalyzerBench.SlowSecond s : f.slowest()) {
            slowest.add(new FiguresJson().put("second", s.second()).fixed("close_ms", s.closeMs(), 3)
                    .fixed("verdict_ms", s.verdictMs(), 3).fixed("ledger_lag_ms", s.ledgerLagMs(), 3)
                    .fixed("published_ms", s.publishedMs(), 3).fixed("read_ms", s.readMs(), 3)
                    .fixed("hiccup_ms", s.hiccupMs(), 3));
        }
        return slowest;
    }

    private static String oneDecimalOrNull(double v) {
        return Double.isNaN(v) ? "null" : String.format(Locale.ROOT, "%.1f", v);
    }

    /**
     * This JVM's collectors, by the names it gives them (ZGC: "ZGC Cycles, ZGC Pauses"; the parallel collector: "PS
     * MarkSweep, PS Scavenge"): the figures depend on it, and the launcher picks it by command.
     */
    private static String collectors() {
        return java.lang.management.ManagementFactory.getGarbageCollectorMXBeans().stream()
                .map(java.lang.management.GarbageCollectorMXBean::getName).sorted()
                .collect(java.util.stream.Collectors.joining(", "));
    }
}
