package io.rigscope.generator;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.generator.http.ClientLoops;
import io.rigscope.generator.plan.LoadPlan;
import io.rigscope.generator.plan.LoopMode;
import io.rigscope.generator.plan.Scenario;
import io.rigscope.model.wire.Ledger;
import io.rigscope.model.wire.Sample;
import io.rigscope.model.wire.SampleBatch;
import io.rigscope.model.wire.WireRecord;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Whole generator runs for the engine's tests ({@link EngineBehaviourTest}, {@link EngineSchedulingTest}), on client
 * loops opened before the class's tests and closed after them: {@code @RegisterExtension static final EngineRuns
 * engine = new EngineRuns();}
 */
final class EngineRuns implements BeforeAllCallback, AfterAllCallback {

    /** The client loops every run of the class uses (as a process running several runs keeps one set). */
    private ClientLoops loops;

    @Override
    public void beforeAll(ExtensionContext context) {
        loops = ClientLoops.open(GeneratorOptions.defaults().ioThreads());
    }

    @Override
    public void afterAll(ExtensionContext context) {
        loops.close();
    }

    ClientLoops loops() {
        return loops;
    }

    /** What one run produced: its summary and every record the sink received, in order. */
    record Run(RunSummary summary, List<WireRecord> records, List<SecondReport> seconds) {

        List<Sample> samples(String scenario) {
            return records.stream().filter(r -> r instanceof SampleBatch).flatMap(r -> ((SampleBatch) r).samples().stream())
                    .filter(s -> s.scenario().equals(scenario)).toList();
        }

        List<Ledger> ledgers(String scenario) {
            return records.stream().filter(r -> r instanceof Ledger l && l.scenario().equals(scenario))
                    .map(r -> (Ledger) r).toList();
        }

        <T extends WireRecord> List<T> all(Class<T> type) {
            return records.stream().filter(type::isInstance).map(type::cast).toList();
        }
    }

    Run run(LoopMode mode, Duration duration, Scenario... scenarios) {
        return run(GeneratorOptions.defaults(), mode, duration, scenarios);
    }

    /** One run with these options (its listener replaced by the one collecting the seconds). */
    Run run(GeneratorOptions options, LoopMode mode, Duration duration, Scenario... scenarios) {
        List<WireRecord> records = new CopyOnWriteArrayList<>();
        List<SecondReport> seconds = new CopyOnWriteArrayList<>();
        RunSummary summary = new Generator(records::add, options.withClientLoops(loops).withListener(seconds::add))
                .run(new LoadPlan("eng-" + UUID.randomUUID().toString().substring(0, 8), 0, "gen-1", null, mode, duration,
                        List.of(scenarios), null))
                .block(Duration.ofSeconds(30));
        return new Run(summary, records, seconds);
    }

    static Scenario get(String name, String url, double rate, int maxInFlight, Duration timeout) {
        return new Scenario(name, "GET", URI.create(url), Map.of(), rate, maxInFlight, timeout, null);
    }

    /**
     * Nothing is lost: scheduled = sent + dropped, every request sent ended in exactly one sample, and the
     * ledger's per-second counts add up to the same totals, with one last second.
     */
    static void assertEveryRequestIsAccountedFor(Run run, String scenario) {
        ScenarioSummary s = run.summary().scenario(scenario);
        List<Sample> samples = run.samples(scenario);
        List<Ledger> ledger = run.ledgers(scenario);
        assertThat(s.scheduled()).as(scenario + " scheduled").isEqualTo(s.sent() + s.dropped());
        assertThat(s.completed()).as(scenario + " completed").isEqualTo(s.sent());
        assertThat(samples).as(scenario + " samples").hasSize((int) s.sent());
        assertThat(s.failed()).isEqualTo(samples.stream().filter(Sample::failed).count());
        assertThat(ledger.stream().mapToLong(Ledger::scheduled).sum()).as(scenario + " ledger scheduled").isEqualTo(s.scheduled());
        assertThat(ledger.stream().mapToLong(Ledger::sent).sum()).as(scenario + " ledger sent").isEqualTo(s.sent());
        assertThat(ledger.stream().mapToLong(Ledger::dropped).sum()).as(scenario + " ledger dropped").isEqualTo(s.dropped());
        assertThat(ledger.stream().mapToLong(Ledger::completed).sum()).as(scenario + " ledger completed").isEqualTo(samples.size());
        assertThat(ledger.stream().filter(Ledger::last)).as(scenario + " last ledgers").hasSize(1);
        assertThat(run.summary().samplesPublished()).isGreaterThanOrEqualTo(samples.size());
        assertThat(run.summary().recordsPublished()).isEqualTo(run.summary().recordsProduced())
                .isEqualTo(run.records().size());
    }
}
