package io.rigscope.rig.generate;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.analyzer.api.Analyzer;
import io.rigscope.analyzer.decision.Decision;
import io.rigscope.analyzer.pipeline.AnalyzerInput;
import io.rigscope.analyzer.decision.RepeatSummary;
import io.rigscope.analyzer.decision.SeriesReport;
import io.rigscope.generator.target.BenchServer;
import io.rigscope.localenv.testing.KafkaBroker;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.model.topic.Topic;
import io.rigscope.model.wire.Ledger;
import io.rigscope.model.wire.SampleBatch;
import io.rigscope.rig.Main;
import io.rigscope.rig.options.ExitCodes;
import io.rigscope.wire.WireSource;
import io.rigscope.wire.kafka.KafkaClients;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two {@code rigscope generate} runs on one series and repeat, {@code --share 1/2} in this JVM and {@code --share
 * 2/2} in a process of its own started two seconds later: the live analyzer waits for both before it
 * closes a second or judges the repeat, and the repeat counts what one generator at the full rate counts.
 */
@Tag("it")
class SharedScheduleTest {

    @RegisterExtension
    static final KafkaBroker broker = new KafkaBroker();

    private static String[] generate(String url, String series, String... extra) {
        List<String> args = new java.util.ArrayList<>(List.of("generate", "--bootstrap", broker.bootstrap(), "--url",
                url, "--rate", "400", "--duration", "4s", "--batch", "0", "--method", "GET", "--series", series,
                "--rep", "1"));
        args.addAll(List.of(extra));
        return args.toArray(String[]::new);
    }

    /** The series' report; live, every final SECOND decision goes to {@code seconds} too. */
    private static SeriesReport analyse(String series, boolean live, List<Decision.Second> seconds) {
        var input = AnalyzerInput.fromKafka(new WireSource(KafkaClients.of(broker.bootstrap()), new WireCodec()),
                series, live, f -> { });
        Analyzer analyzer = Analyzer.forSeries(series);
        // the generators write no SERIES_END (a repeat of an orchestrated series): live, the input ends after 20 s
        Decision last = (live ? analyzer.live(input.take(Duration.ofSeconds(20)), p -> { })
                : analyzer.replay(input, p -> { }))
                .doOnNext(d -> {
                    if (d instanceof Decision.Second sec && !sec.provisional()) {
                        seconds.add(sec);
                    }
                })
                .blockLast();
        return ((Decision.Series) last).report();
    }

    @Test
    void twoSharesOfOneScheduleAreOneRepeatAtTheFullRate() throws Exception {
        String shared = "share-" + System.nanoTime();
        String whole = shared + "-whole";
        try (BenchServer server = new BenchServer(1)) {
            List<Decision.Second> decided = new java.util.concurrent.CopyOnWriteArrayList<>();
            CompletableFuture<SeriesReport> live = CompletableFuture.supplyAsync(() -> analyse(shared, true, decided));
            CompletableFuture<Integer> first = CompletableFuture.supplyAsync(
                    () -> Main.run(generate(server.url(), shared, "--share", "1/2")));
            Thread.sleep(2_000);
            // the second share in a process of its own, as on another machine
            List<String> child = new java.util.ArrayList<>(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx512m", "-cp",
                    System.getProperty("java.class.path"), Main.class.getName()));
            child.addAll(List.of(generate(server.url(), shared, "--share", "2/2")));
            Process process = new ProcessBuilder(child).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            assertThat(process.waitFor(90, TimeUnit.SECONDS)).as("the second generator's process ended").isTrue();
            int second = process.exitValue();
            assertThat(first.get(60, TimeUnit.SECONDS)).isEqualTo(ExitCodes.OK);
            assertThat(second).isEqualTo(ExitCodes.OK);
            assertThat(Main.run(generate(server.url(), whole))).isEqualTo(ExitCodes.OK);

            SeriesReport sharedLive = live.get(90, TimeUnit.SECONDS);
            RepeatSummary s = sharedLive.repeats().get(0);
            RepeatSummary w = analyse(whole, false, new java.util.ArrayList<>()).repeats().get(0);
            // 400/s for 4 s: 1,600 requests, 800 from each share
            assertThat(w.samples()).isEqualTo(1_600);
            assertThat(s.samples()).as("both shares' samples, live").isEqualTo(w.samples());
            assertThat(s.dropped()).isEqualTo(w.dropped()).isZero();
            // each second decided once: none closed on the first share's ledger alone and reopened by the second's
            assertThat(decided).extracting(d -> d.scenario() + "@" + d.second().sec()).doesNotHaveDuplicates();
            assertThat(decided.stream().mapToLong(d -> d.second().count()).sum()).isEqualTo(1_600);
            assertThat(analyse(shared, false, new java.util.ArrayList<>()).repeats().get(0).samples())
                    .isEqualTo(1_600);

            // each generator published its own ledger: 800 scheduled each
            var records = new WireSource(KafkaClients.of(broker.bootstrap()), new WireCodec())
                    .records(new WireSource.Spec(EnumSet.of(Topic.LEDGER, Topic.SAMPLES), shared, true, false),
                            f -> { }).collectList().block(Duration.ofSeconds(30));
            assertThat(records.stream().filter(r -> r instanceof Ledger).map(r -> (Ledger) r)
                    .filter(l -> l.src().equals("gen-1")).mapToLong(Ledger::scheduled).sum()).isEqualTo(800);
            assertThat(records.stream().filter(r -> r instanceof Ledger).map(r -> (Ledger) r)
                    .filter(l -> l.src().equals("gen-2")).mapToLong(Ledger::scheduled).sum()).isEqualTo(800);
            assertThat(records.stream().filter(r -> r instanceof SampleBatch).count()).isPositive();
        }
    }
}
