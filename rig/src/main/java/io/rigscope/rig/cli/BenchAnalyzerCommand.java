package io.rigscope.rig.cli;

import io.rigscope.analyzer.bench.AnalyzerBench;
import io.rigscope.localenv.kafka.EmbeddedKafka;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.wire.WirePublisher;
import io.rigscope.wire.kafka.TopicAdmin;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code rigscope bench analyzer}: raw consume+decode vs full replay to verdicts, and the heap. */
@Command(name = "analyzer", mixinStandardHelpOptions = true,
        description = {"Publish N synthetic samples, then time (a) consuming rig.samples and decoding every sample and "
            + "(b) a full replay of the series to verdicts. Prints samples, raw_consume_per_s, replay_per_s, "
            + "ratio (b/a) and heap_peak_mb. Targets: replay >= 1,000,000 samples/s, ratio >= 0.5, heap flat and "
            + "< 512 MB for 30M samples. Uses a fresh embedded broker in a temporary directory unless --bootstrap."})
public final class BenchAnalyzerCommand implements Callable<Integer> {

    @Option(names = "--samples", paramLabel = "N", description = "Ingest samples to publish (default 10,000,000: shorter runs mostly time the JIT warming up).")
    long samples = 10_000_000;

    @Option(names = "--rate", paramLabel = "PER_S", description = "Simulated request rate (default 50,000/s).")
    int ratePerSec = 50_000;

    @Option(names = "--encoding", paramLabel = "FORMAT",
            description = "Value format of rig.samples: ${COMPLETION-CANDIDATES} (default: the publisher's default, ${DEFAULT-VALUE}).")
    WireCodec.Format encoding = WirePublisher.Options.defaults().samplesFormat();

    @Option(names = "--json", description = "Print one JSON object.")
    boolean json;

    @Option(names = "--bootstrap", paramLabel = "HOST:PORT", description = "Use this cluster instead of a fresh broker.")
    String bootstrap;

    @Override
    public Integer call() throws IOException {
        if (samples < 1_000) {
            throw new UsageException("--samples must be >= 1000, was " + samples);
        }
        if (ratePerSec < 100) {
            throw new UsageException("--rate must be >= 100, was " + ratePerSec);
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
            AnalyzerBench.Figures f = AnalyzerBench.run(servers, samples, ratePerSec, encoding, line -> System.err.println("bench: " + line));
            if (json) {
                System.out.printf(Locale.ROOT, "{\"samples\":%d,\"raw_consume_per_s\":%.0f,\"replay_per_s\":%.0f,"
                                + "\"ratio\":%.3f,\"heap_peak_mb\":%.1f,\"heap_after_gc_peak_mb\":%.1f,\"records\":%d,"
                                + "\"publish_s\":%.1f,\"verdicts\":%d,\"encoding\":\"%s\",\"max_heap_mb\":%d,\"cpus\":%d}%n",
                        f.samples(), f.rawConsumePerSec(), f.replayPerSec(), f.ratio(), f.heapPeakMb(),
                        f.heapAfterGcPeakMb(), f.records(), f.publishSec(), f.verdicts(), f.encoding(),
                        Runtime.getRuntime().maxMemory() / 1048576, Runtime.getRuntime().availableProcessors());
            } else {
                System.out.printf(Locale.ROOT, "samples            %,d (%,d records, %s, published in %.1f s)%n",
                        f.samples(), f.records(), f.encoding(), f.publishSec());
                System.out.printf(Locale.ROOT, "raw_consume_per_s  %,.0f%n", f.rawConsumePerSec());
                System.out.printf(Locale.ROOT, "replay_per_s       %,.0f  (%,d verdicts)%n", f.replayPerSec(), f.verdicts());
                System.out.printf(Locale.ROOT, "ratio              %.3f%n", f.ratio());
                System.out.printf(Locale.ROOT, "heap_peak_mb       %.1f  (after-GC peak %.1f MB, max heap %d MB)%n",
                        f.heapPeakMb(), f.heapAfterGcPeakMb(), Runtime.getRuntime().maxMemory() / 1048576);
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
}
