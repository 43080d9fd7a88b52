package io.rigscope.rig.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.analyzer.api.Analyzer;
import io.rigscope.analyzer.decision.Decision;
import io.rigscope.analyzer.decision.DecisionCodec;
import io.rigscope.analyzer.synthetic.SyntheticSeries;
import io.rigscope.analyzer.synthetic.SyntheticSeries.Plan;
import io.rigscope.analyzer.synthetic.SyntheticSeries.RepeatPlan;
import io.rigscope.analyzer.synthetic.SyntheticSeries.Stall;
import io.rigscope.analyzer.pipeline.AnalyzerInput;
import io.rigscope.analyzer.decision.SeriesReport;
import io.rigscope.localenv.testing.KafkaBroker;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.model.topic.Topic;
import io.rigscope.model.wire.Verdict;
import io.rigscope.wire.WirePublisher;
import io.rigscope.wire.WireSource;
import io.rigscope.wire.kafka.KafkaClients;
import io.rigscope.wire.kafka.TopicAdmin;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two analyzers in one consumer group follow every series on the broker: three series started while they run are
 * each analysed once, in all (not once per analyzer), to the report a replay of the series gives.
 */
@Tag("it")
class EverySeriesTest {

    @RegisterExtension
    static final KafkaBroker broker = new KafkaBroker();

    @Test
    void twoAnalyzersInOneGroupAnalyseEachNewSeriesOnceToTheReplaysReport() throws Exception {
        WireCodec codec = new WireCodec();
        KafkaClients clients = KafkaClients.of(broker.bootstrap());
        try (TopicAdmin admin = new TopicAdmin(clients)) {
            admin.ensureTopics();
        }
        String group = "every-" + System.nanoTime();
        Map<String, List<String>> byMember = new ConcurrentHashMap<>();
        List<SeriesReport> reports = new CopyOnWriteArrayList<>();
        List<EverySeries> members = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        List<Future<List<String>>> runs = new ArrayList<>();
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(console, true, StandardCharsets.UTF_8);
        try (WirePublisher verdicts = new WirePublisher(clients, codec, WirePublisher.Options.defaults());
             WirePublisher load = new WirePublisher(clients, codec, WirePublisher.Options.defaults())) {
            for (int m = 0; m < 2; m++) {
                String name = "member-" + m;
                EverySeries every = new EverySeries(new EverySeries.Spec(clients, group, false, 2, null, true),
                        codec, verdicts, out);
                members.add(every);
                runs.add(pool.submit(() -> every.run(Duration.ofSeconds(90), (id, report) -> {
                    byMember.computeIfAbsent(name, k -> new CopyOnWriteArrayList<>()).add(id);
                    reports.add(report);
                })));
            }
            long deadline = System.currentTimeMillis() + 30_000;
            while (!console.toString(StandardCharsets.UTF_8).contains("assigned [rig.markers-0]")
                    && System.currentTimeMillis() < deadline) {
                Thread.sleep(100);
            }
            Thread.sleep(500);
            String run = "every-" + System.nanoTime();
            List<String> ids = List.of(run + "-a", run + "-b", run + "-c");
            for (String id : ids) {
                Plan plan = Plan.of(id, 2, 5, 100).withRepeat(RepeatPlan.clean(2)
                        .withStalls(List.of(new Stall(1_200, 400))));
                SyntheticSeries.emit(plan, load::publish);
            }
            load.flush();
            deadline = System.currentTimeMillis() + 60_000;
            while (reports.size() < ids.size() && System.currentTimeMillis() < deadline) {
                Thread.sleep(200);
            }
            Thread.sleep(1_000); // a second analysis of a series, if any, would arrive now
            members.forEach(EverySeries::stop);
            for (Future<List<String>> f : runs) {
                f.get(30, TimeUnit.SECONDS);
            }
            verdicts.flush();

            List<String> analysed = byMember.values().stream().flatMap(List::stream).sorted().toList();
            assertThat(analysed).as("each series once, over both members; console:%n%s", console)
                    .containsExactlyElementsOf(ids);
            for (SeriesReport live : reports) {
                Decision last = Analyzer.forSeries(live.series()).replay(AnalyzerInput.fromKafka(
                        new WireSource(clients, codec), live.series(), false, f -> { }), p -> { }).blockLast();
                SeriesReport replayed = ((Decision.Series) last).report();
                assertThat(new String(DecisionCodec.reportJson(live), StandardCharsets.UTF_8))
                        .isEqualTo(new String(DecisionCodec.reportJson(replayed), StandardCharsets.UTF_8));
                assertThat(live.repeats()).hasSize(2);
                assertThat(live.repeats().get(1).freezeSeconds()).isNotEmpty();
            }
            // one series verdict a series on rig.verdicts
            List<String> seriesVerdicts = new WireSource(clients, codec)
                    .records(new WireSource.Spec(EnumSet.of(Topic.VERDICTS), null, true, false), f -> { })
                    .ofType(Verdict.class).filter(v -> ids.contains(v.run()) && v.kind() == Verdict.Kind.SERIES)
                    .map(Verdict::run).collectList().block(Duration.ofSeconds(30));
            assertThat(seriesVerdicts).containsExactlyInAnyOrderElementsOf(ids);
        } finally {
            pool.shutdownNow();
        }
    }
}
