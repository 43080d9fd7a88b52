package io.rigscope.rig.series;

import io.rigscope.generator.Generator;
import io.rigscope.generator.GeneratorOptions;
import io.rigscope.generator.outbox.RecordSink;
import io.rigscope.generator.RunSummary;
import io.rigscope.generator.ScenarioSummary;
import io.rigscope.generator.plan.BodyTemplate;
import io.rigscope.generator.plan.CustomerPool;
import io.rigscope.generator.plan.LoadPlan;
import io.rigscope.generator.plan.LoopMode;
import io.rigscope.generator.plan.Scenario;
import io.rigscope.model.wire.DatabaseGain;
import io.rigscope.model.wire.Environment;
import io.rigscope.model.wire.Marker;
import io.rigscope.model.wire.MarkerBody;
import io.rigscope.model.wire.PhaseEnd;
import io.rigscope.model.wire.PhaseStart;
import io.rigscope.model.wire.SeriesEnd;
import io.rigscope.model.wire.SeriesStart;
import io.rigscope.model.wire.VerdictFacts;
import io.rigscope.rig.denominator.Denominator;
import io.rigscope.rig.reconciliation.Reconciliation;
import java.io.PrintStream;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import reactor.core.publisher.Sinks;

/**
 * Runs a {@link SeriesPlan}: the ladder rungs and the sustained repeats (each a repeat with its own number,
 * REPEAT_START/REPEAT_END markers written by the generator, then a RECONCILIATION marker with what the database
 * gained), then the ceiling (a repeat of phase {@code ceiling}, closed loop) and the denominator. Series markers
 * (SERIES_START, CONFIG, SERIES_END) are written here. It keeps no figure of its own: latency, delivered rates,
 * claims and the ceiling are the analyzer's decisions ({@link LiveAnalysis}).
 *
 * <p>Blocking: call from a command thread. Not thread-safe.
 */
public final class SeriesRunner {

    /** The generator id this runner's load carries. */
    public static final String GENERATOR_SRC = "gen-1";
    private static final String SRC = "rig";

    /**
     * One finished repeat, as the rig ran it.
     *
     * @param rep repeat number
     * @param phase {@code ladder}, {@code sustained} or {@code ceiling}
     * @param requestsPerSec the ingest rate offered (0 for the closed-loop ceiling)
     * @param run the generator's schedule summary (scheduled, sent, dropped)
     * @param gain what the database gained, or null when no database was given (or for the ceiling)
     */
    public record RepeatOutcome(int rep, String phase, double requestsPerSec, RunSummary run, DatabaseGain gain) {
    }

    /**
     * What the series did.
     *
     * @param repeats every repeat, in order (the ceiling last, when it ran)
     * @param denominator pgbench's result, or null
     */
    public record Outcome(List<RepeatOutcome> repeats, Denominator.Result denominator) {
        public Outcome {
            repeats = List.copyOf(repeats);
        }
    }

    private final SeriesPlan plan;
    private final RecordSink sink;
    private final GeneratorOptions generatorOptions;
    private final Reconciliation reconciliation;
    private final Denominator.Spec denominatorSpec;
    private final AtomicInteger currentRep;
    private final PrintStream console;
    private final Clock clock;
    private RepeatListener listener = RepeatListener.NONE;
    private DenominatorHook denominatorHook = (lastRep, spec) -> spec;
    /** The Postgres log a failed step's cause is looked up in, or null. */
    private java.nio.file.Path pgLog;
    /** The repeat whose load runs now and the signal that stops it early, or null between repeats. */
    private final AtomicReference<RunningRepeat> running = new AtomicReference<>();

    private record RunningRepeat(int rep, Sinks.One<Generator.Stop> stop, AtomicBoolean stopped) {
    }

    /**
     * Told on the command thread as each repeat's load is handed to the generator and once it has ended (its
     * reconciliation not yet counted). {@code rigscope calibrate} times its provocations by it.
     */
    public interface RepeatListener {
        /** Listens to nothing. */
        RepeatListener NONE = new RepeatListener() {
        };

        /**
         * Repeat {@code rep} is about to run; its schedule starts a few tens of ms later.
         *
         * @param phase {@code ladder}, {@code sustained} or {@code ceiling}
         * @param duration the repeat's scheduled length
         */
        default void started(int rep, String phase, Duration duration) {
        }

        /** Repeat {@code rep}'s load has ended (every request answered or timed out). */
        default void ended(int rep) {
        }
    }

    /**
     * @param plan the series
     * @param sink where records go (the publisher)
     * @param generatorOptions the generator's options (its listener prints the per-second line)
     * @param reconciliation counts what the database gained, or null when there is no database to ask
     * @param denominatorSpec how to run pgbench, or null (then the plan's denominator is skipped, said so)
     * @param currentRep set to the repeat in progress (0 between repeats), for collectors to stamp
     * @param console where progress lines go
     */
    public SeriesRunner(SeriesPlan plan, RecordSink sink, GeneratorOptions generatorOptions,
                        Reconciliation reconciliation, Denominator.Spec denominatorSpec, AtomicInteger currentRep,
                        PrintStream console) {
        this.plan = Objects.requireNonNull(plan, "plan");
        this.sink = Objects.requireNonNull(sink, "sink");
        this.generatorOptions = Objects.requireNonNull(generatorOptions, "generatorOptions");
        this.reconciliation = reconciliation;
        this.denominatorSpec = denominatorSpec;
        this.currentRep = Objects.requireNonNull(currentRep, "currentRep");
        this.console = Objects.requireNonNull(console, "console");
        this.clock = Clock.systemUTC();
    }

    /**
     * Called on the command thread before pgbench runs, with the last repeat's number and the spec as planned: the
     * session waits there for the analyzer to have printed every repeat (so that its lines never fall among
     * pgbench's) and may return a spec of other values (the quantities the ingest check accepted).
     */
    public interface DenominatorHook {
        Denominator.Spec prepare(int lastRep, Denominator.Spec planned);
    }

    /** Calls {@code hook} before the denominator; returns this runner. */
    public SeriesRunner beforeDenominator(DenominatorHook hook) {
        this.denominatorHook = Objects.requireNonNull(hook, "hook");
        return this;
    }

    /** Looks a failed step's cause up in {@code log} (the Postgres log, or null for none); returns this runner. */
    public SeriesRunner withPgLog(java.nio.file.Path log) {
        this.pgLog = log;
        return this;
    }

    /** Tells {@code l} when each repeat starts and ends; returns this runner. */
    public SeriesRunner onRepeat(RepeatListener l) {
        this.listener = Objects.requireNonNull(l, "listener");
        return this;
    }

    /**
     * Stops repeat {@code rep}'s load now, when it is the one running (any thread): the analyzer's
     * {@code abortOnFail} decision. The generator ends the schedule, lets requests in flight end and writes
     * {@code reason} (the ABORT verdict's facts) into the REPEAT_END marker ({@code stopped}); the series goes on with
     * its next repeat.
     *
     * @return true when the repeat was running and this stop was the first
     */
    public boolean stopRepeat(int rep, VerdictFacts.Abort reason) {
        RunningRepeat r = running.get();
        if (r != null && r.rep() == rep && r.stop().tryEmitValue(Generator.Stop.because(reason)).isSuccess()) {
            r.stopped().set(true);
            return true;
        }
        return false;
    }

    /** Writes SERIES_START and the CONFIG marker. Call before anything reads the series' data. */
    public void start(Environment environment) {
        marker(0, null, SeriesStart.ofSeries(plan.series()));
        marker(0, null, plan.configData());
        if (environment != null && !environment.facts().isEmpty()) {
            marker(0, null, environment);
        }
        sink.flush();
    }

    /** Runs the ladder, the sustained repeats, the ceiling and the denominator, then writes SERIES_END. */
    public Outcome run() {
        List<RepeatOutcome> repeats = new ArrayList<>();
        int rep = 0;
        if (plan.ladder() != null) {
            SeriesPlan.Ladder ladder = plan.ladder();
            for (double rate : ladder.requestsPerSec()) {
                for (int i = 0; i < ladder.repeatsPerRung(); i++) {
                    rep++;
                    console.printf("%n== ladder rung %.0f req/s (%.0f events/s), step %d/%d: repeat %d, %s%n", rate,
                            rate * plan.load().batch(), i + 1, ladder.repeatsPerRung(), rep,
                            human(ladder.stepDuration()));
                    repeats.add(repeat(rep, "ladder", rate, ladder.stepDuration()));
                }
            }
        }
        SeriesPlan.Sustained sustained = plan.sustained();
        for (int i = 0; i < sustained.repeats(); i++) {
            if (rep > 0 && !sustained.cooldown().isZero()) {
                console.printf("-- cool-down %s%n", human(sustained.cooldown()));
                sleep(sustained.cooldown());
            }
            rep++;
            console.printf("%n== sustained %d/%d at %.0f req/s (%.0f events/s): repeat %d, %s%n", i + 1,
                    sustained.repeats(), sustained.requestsPerSec(), sustained.requestsPerSec() * plan.load().batch(),
                    rep, human(sustained.duration()));
            repeats.add(repeat(rep, "sustained", sustained.requestsPerSec(), sustained.duration()));
        }
        if (plan.ceiling() != null) {
            rep++;
            try {
                repeats.add(ceiling(rep, plan.ceiling()));
            } catch (RuntimeException e) {
                // a step that fails never costs the series its verdict: said in one line, the series goes on
                currentRep.set(0);
                console.println("== ceiling: FAILED, the series is judged without it: " + oneLine(e));
            }
        }
        Denominator.Result denominator = denominator(rep);
        marker(0, null, SeriesEnd.ofRepeats(rep));
        sink.flush();
        return new Outcome(repeats, denominator);
    }

    private RepeatOutcome repeat(int rep, String phase, double requestsPerSec, Duration duration) {
        currentRep.set(rep);
        Instant windowStart = clock.instant();
        LoadPlan load = new LoadPlan(plan.series(), rep, GENERATOR_SRC, phase, LoopMode.OPEN, duration,
                scenarios(requestsPerSec, plan.load().maxInFlight(), LoopMode.OPEN), LoadPlan.Lifecycle.REPEAT);
        listener.started(rep, phase, duration);
        RunningRepeat stoppable = new RunningRepeat(rep, Sinks.one(), new AtomicBoolean());
        running.set(stoppable);
        RunSummary run;
        try {
            run = new Generator(sink, generatorOptions).run(load, stoppable.stop().asMono()).block(bound(duration));
        } finally {
            running.set(null);
        }
        Objects.requireNonNull(run, "the generator ended without a summary");
        listener.ended(rep);
        if (stoppable.stopped().get() && run.scheduleElapsed().compareTo(duration) < 0) {
            console.printf("   repeat %d stopped after %s of its %s schedule (the analyzer's abortOnFail)%n", rep,
                    human(run.scheduleElapsed()), human(duration));
        }
        currentRep.set(0);
        Instant windowEnd = clock.instant().plusMillis(1);
        // one drop count per scenario, each on its own line: the analyzer's repeat line counts the same way
        for (ScenarioSummary sc : run.scenarios()) {
            console.printf("   repeat %d %s: %d scheduled, %d sent, %d dropped (the generator's schedule)%n", rep,
                    sc.name(), sc.scheduled(), sc.sent(), sc.dropped());
        }
        DatabaseGain gain = null;
        if (reconciliation != null) {
            try {
                gain = reconciliation.count(plan.series(), rep, SRC, nowUs(), phase,
                        new Reconciliation.Window(windowStart, windowEnd));
                sink.publish(gain.toMarker());
                console.printf("   database gained: %d rows, Σ quantity %d (the analyzer compares them with its claims)%n",
                        gain.rowsWritten(), gain.qtySumGained());
            } catch (RuntimeException e) {
                console.println("   reconciliation: FAILED, this repeat is UNRECONCILED: " + oneLine(e));
            }
        } else {
            console.println("   reconciliation: no database or no reconciliation SQL; the analyzer will report UNRECONCILED");
        }
        sink.flush();
        return new RepeatOutcome(rep, phase, requestsPerSec, run, gain);
    }

    /**
     * The longest a generator run of this schedule may take: the schedule, the drain grace and two minutes for
     * the requests still in flight (every scenario's timeout is shorter). A run that outlasts it is a hung
     * generator, reported as such instead of blocking the series forever.
     */
    private Duration bound(Duration schedule) {
        return schedule.plus(generatorOptions.drainGrace()).plus(Duration.ofMinutes(2));
    }

    /** The closed-loop ceiling, as repeat {@code rep} of phase {@code ceiling}: the analyzer takes its figures. */
    private RepeatOutcome ceiling(int rep, SeriesPlan.Ceiling c) {
        console.printf("%n== ceiling: closed loop, %d workers, batch %d, %s: repeat %d (a maximum, never a service "
                + "level)%n", c.workers(), plan.load().batch(), human(c.duration()), rep);
        currentRep.set(rep);
        LoadPlan load = new LoadPlan(plan.series(), rep, GENERATOR_SRC, "ceiling", LoopMode.CLOSED, c.duration(),
                scenarios(1, c.workers(), LoopMode.CLOSED).subList(0, 1), LoadPlan.Lifecycle.REPEAT);
        RunSummary run = Objects.requireNonNull(new Generator(sink, generatorOptions).run(load).block(bound(c.duration())),
                "the generator ended without a summary");
        currentRep.set(0);
        sink.flush();
        return new RepeatOutcome(rep, "ceiling", 0, run, null);
    }

    private Denominator.Result denominator(int lastRep) {
        if (plan.denominator() == null) {
            return null;
        }
        if (denominatorSpec == null) {
            console.println("== denominator: skipped (no database URL, or neither denominator.insert nor a tenant for pgbench's rows)");
            return null;
        }
        if (denominatorSpec.pgbench() == null && Denominator.findPgbench().isEmpty()) {
            console.println("== denominator: skipped (pgbench is not installed: apt-get install postgresql-contrib)");
            return null;
        }
        Denominator.Spec spec = denominatorHook.prepare(lastRep, denominatorSpec);
        console.printf("%n== denominator: pgbench inserting the same rows, batch %d, %d clients, %s%n",
                spec.batch(), spec.clients(), human(spec.duration()));
        marker(0, "denominator", PhaseStart.EMPTY);
        Denominator.LogExcerpt log = Denominator.LogExcerpt.mark(pgLog);
        Denominator.Result result;
        try {
            result = new Denominator(spec).run(line -> console.println("   " + line));
        } catch (RuntimeException e) {
            // the denominator stands beside the figures; its failure never costs the series its verdict
            String cause = e instanceof Denominator.Failed f ? f.cause() : oneLine(e);
            String server = log.firstError();
            String line = "denominator FAILED, the series is judged without it: " + cause
                    + (server == null || cause.contains(server) ? "" : " (Postgres log: " + server + ")");
            console.println("   " + line);
            marker(0, "denominator", new PhaseEnd(null, null, null, (long) spec.batch(), (long) spec.clients(), null,
                    Map.of("failed", line)));
            sink.flush();
            return null;
        }
        marker(0, "denominator", PhaseEnd.denominator(result.rowsPerSec(), result.tps(), spec.batch(),
                spec.clients(), result.failedTransactions()));
        console.println("   " + result.line());
        return result;
    }

    /** An exception as one line: its message, else its type. */
    static String oneLine(Throwable e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return m.replace('\n', ' ').strip();
    }

    /**
     * The ingest scenario first and, in open loop, the others: a series file's scenarios when it has them, else
     * the reference SUT's ingest request and its read probe.
     */
    List<Scenario> scenarios(double requestsPerSec, int maxInFlight, LoopMode mode) {
        return scenariosOf(plan, requestsPerSec, maxInFlight, mode);
    }

    /** {@link #scenarios} of {@code plan} (also the SUT's warm-up, {@code sutproc.SutProcess.SutWarmup}). */
    public static List<Scenario> scenariosOf(SeriesPlan plan, double requestsPerSec, int maxInFlight, LoopMode mode) {
        if (plan.requests() != null) {
            return plan.requests().scenarios(plan.target(), requestsPerSec,
                    mode == LoopMode.CLOSED ? Integer.valueOf(maxInFlight) : null, mode == LoopMode.OPEN);
        }
        SeriesPlan.Load l = plan.load();
        Map<String, String> auth = plan.apiKey() == null ? Map.of() : Map.of("Authorization", "Bearer " + plan.apiKey());
        Map<String, String> headers = new LinkedHashMap<>(auth);
        headers.put("Content-Type", "application/json");
        BodyTemplate body = new BodyTemplate(l.batch(), new CustomerPool.Ranged(l.customerFormat(), 1, l.customers()),
                l.meter(), 1, 100, Map.of("source", "rigscope"), null, null);
        List<Scenario> list = new ArrayList<>();
        list.add(new Scenario("ingest", "POST", plan.target().resolve("/v1/usage-events"), headers, requestsPerSec,
                maxInFlight, l.timeout(), body));
        if (mode == LoopMode.OPEN && l.probePerSec() > 0) {
            URI probe = plan.target().resolve("/v1/usage-events/aggregate?customer_id="
                    + l.customerFormat().replace("%d", "1"));
            list.add(new Scenario("probe", "GET", probe, auth,
                    l.probePerSec(), 16, l.timeout(), null));
        }
        return list;
    }

    private void marker(int rep, String phase, MarkerBody body) {
        sink.publish(new Marker(plan.series(), rep, SRC, nowUs(), phase, body));
    }

    private long nowUs() {
        Instant now = clock.instant();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted during the cool-down", e);
        }
    }

    static String human(Duration d) {
        long s = d.toSeconds();
        return s >= 60 && s % 60 == 0 ? (s / 60) + " min" : s > 0 ? s + " s" : d.toMillis() + " ms";
    }
}
