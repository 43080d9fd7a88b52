package io.rigscope.rig.series;

import io.rigscope.analyzer.api.Analyzer;
import io.rigscope.analyzer.decision.Ceiling;
import io.rigscope.analyzer.decision.GateResult;
import io.rigscope.analyzer.decision.RepeatSummary;
import io.rigscope.analyzer.report.HtmlReport;
import io.rigscope.analyzer.report.IntervalLogs;
import io.rigscope.rig.export.ExportTargets;
import io.rigscope.analyzer.report.ReportFiles;
import io.rigscope.analyzer.report.ReportMaterial;
import io.rigscope.analyzer.decision.SeriesReport;
import io.rigscope.collectors.CollectorContext;
import io.rigscope.collectors.sources.TelemetrySources;
import io.rigscope.generator.GeneratorOptions;
import io.rigscope.generator.outbox.RecordSink;
import io.rigscope.generator.http.ClientLoops;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.model.wire.Environment;
import io.rigscope.pg.PgUrl;
import io.rigscope.rig.bringup.BringUpChecks;
import io.rigscope.rig.denominator.Denominator;
import io.rigscope.rig.reconciliation.Reconciliation;
import io.rigscope.rig.options.KafkaOptions.JournaledPublisher;
import io.rigscope.wire.WirePublisher;
import io.rigscope.wire.WireSource;
import io.rigscope.wire.kafka.KafkaClients;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import reactor.core.Disposable;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * One series from start to verdict, the part {@code rigscope run} and {@code rigscope demo} share: series
 * markers, the local collectors (stamped with the repeat in progress), the live analyzer, the repeats with
 * their reconciliation, the ceiling and denominator, and the report files.
 *
 * <p>Blocking: call from a command thread.
 */
public final class SeriesSession {

    /**
     * What surrounds the load.
     *
     * @param database the database to reconcile against and run pgbench on, or null (then UNRECONCILED)
     * @param tenant the tenant the denominator's rows carry, or null (then no denominator)
     * @param telemetry the local collectors' sources, or null to run none
     * @param environment the ENVIRONMENT marker's facts, or null (none published)
     * @param reportJson where to write the report as JSON, or null
     * @param reportMd where to write it as Markdown, or null
     * @param analyzerTimeout how long to wait for the analyzer after the series ends
     * @param reportHtml where to write it as a self-contained HTML page ({@link HtmlReport}), or null
     * @param hlogDir where to write the HdrHistogram interval logs ({@link IntervalLogs}), or null
     * @param remoteTelemetry the database host's own collectors (an RDS instance's, {@code RdsRig#collectors}) made
     *                        for the series' context, or null; with them the local collectors they stand for
     *                        ({@code RdsRig.REPLACED_LOCAL}) are left out
     * @param journalDir where each repeat's generator keeps its write-ahead sample journal (samples not yet
     *                   acknowledged by the broker; {@code rigscope recover} publishes what a failed run left), or
     *                   null for none
     * @param pushTo where the decisions are pushed as they are decided ({@link ExportTargets}), or null
     */
    public record Options(PgUrl database, String tenant, TelemetrySources.Local telemetry, Environment environment,
                          Path reportJson, Path reportMd, Duration analyzerTimeout, Path reportHtml, Path hlogDir,
                          java.util.function.Function<CollectorContext, io.rigscope.collectors.CollectorSet>
                                  remoteTelemetry,
                          Path journalDir, ExportTargets pushTo) {
        public Options {
            analyzerTimeout = analyzerTimeout == null ? Duration.ofSeconds(90) : analyzerTimeout;
        }

        /** Options pushing nowhere. */
        public Options(PgUrl database, String tenant, TelemetrySources.Local telemetry, Environment environment,
                       Path reportJson, Path reportMd, Duration analyzerTimeout, Path reportHtml, Path hlogDir) {
            this(database, tenant, telemetry, environment, reportJson, reportMd, analyzerTimeout, reportHtml, hlogDir,
                    null, null, null);
        }

        /** These options pushing the decisions to {@code target} (null: nowhere). */
        public Options withPush(ExportTargets target) {
            return new Options(database, tenant, telemetry, environment, reportJson, reportMd, analyzerTimeout,
                    reportHtml, hlogDir, remoteTelemetry, journalDir, target);
        }

        /** Options without an HTML report or interval logs. */
        public Options(PgUrl database, String tenant, TelemetrySources.Local telemetry, Environment environment,
                       Path reportJson, Path reportMd, Duration analyzerTimeout) {
            this(database, tenant, telemetry, environment, reportJson, reportMd, analyzerTimeout, null, null, null, null,
                    null);
        }

        /** Options without interval logs. */
        public Options(PgUrl database, String tenant, TelemetrySources.Local telemetry, Environment environment,
                       Path reportJson, Path reportMd, Duration analyzerTimeout, Path reportHtml) {
            this(database, tenant, telemetry, environment, reportJson, reportMd, analyzerTimeout, reportHtml, null,
                    null, null, null);
        }

        /** These options writing the HTML report to {@code file} (null: none). */
        public Options withReportHtml(Path file) {
            return new Options(database, tenant, telemetry, environment, reportJson, reportMd, analyzerTimeout, file,
                    hlogDir, remoteTelemetry, journalDir, pushTo);
        }

        /** These options writing the interval logs into {@code dir} (null: none). */
        public Options withHlog(Path dir) {
            return new Options(database, tenant, telemetry, environment, reportJson, reportMd, analyzerTimeout,
                    reportHtml, dir, remoteTelemetry, journalDir, pushTo);
        }

        /** These options with the database host's own collectors ({@code remoteTelemetry}; null: none). */
        public Options withRemoteTelemetry(
                java.util.function.Function<CollectorContext, io.rigscope.collectors.CollectorSet> collectors) {
            return new Options(database, tenant, telemetry, environment, reportJson, reportMd, analyzerTimeout,
                    reportHtml, hlogDir, collectors, journalDir, pushTo);
        }

        /** These options with the write-ahead sample journal in {@code dir} (null: none). */
        public Options withJournal(Path dir) {
            return new Options(database, tenant, telemetry, environment, reportJson, reportMd, analyzerTimeout,
                    reportHtml, hlogDir, remoteTelemetry, dir, pushTo);
        }
    }

    /**
     * The series' outcome: what the rig did and what the analyzer decided.
     *
     * @param outcome the repeats, ceiling and denominator as run
     * @param report the analyzer's report (the SERIES decision)
     * @param verdictsNotPublished the one line naming the analysis' journal when the broker did not take some of its
     *                             verdicts or dead letters (past the delivery limit), else null
     */
    public record Result(SeriesRunner.Outcome outcome, SeriesReport report, String verdictsNotPublished) {
        public Result(SeriesRunner.Outcome outcome, SeriesReport report) {
            this(outcome, report, null);
        }

        /** True when the analyzer's verdict is PASS. */
        public boolean passed() {
            return report.allGatesPassed();
        }
    }

    private final KafkaClients bootstrap;
    private final WirePublisher publisher;
    private final WireCodec codec;
    private final PrintStream console;
    /** The series' {@code ${seq}}: one counter for the bring-up's request and every repeat's. */
    private final java.util.concurrent.atomic.AtomicLong seriesCounter = new java.util.concurrent.atomic.AtomicLong();

    /** The generator's client loops: the caller's, or null (each series opens loops of its own and closes them). */
    private final ClientLoops loops;

    public SeriesSession(KafkaClients bootstrap, WirePublisher publisher, WireCodec codec, PrintStream console) {
        this(bootstrap, publisher, codec, console, null);
    }

    /**
     * A session whose generator runs on {@code loops} (the caller's: it closes them after the session), or, with
     * null, on loops each series opens and closes.
     */
    public SeriesSession(KafkaClients bootstrap, WirePublisher publisher, WireCodec codec, PrintStream console,
                         ClientLoops loops) {
        this.loops = loops;
        this.bootstrap = Objects.requireNonNull(bootstrap, "bootstrap");
        this.publisher = Objects.requireNonNull(publisher, "publisher");
        this.codec = Objects.requireNonNull(codec, "codec");
        this.console = Objects.requireNonNull(console, "console");
    }

    /**
     * The bring-up checks every series passes before load, printed one a line.
     *
     * @return true when every check passed; false (said on the console) means no load may be offered
     */
    public static boolean bringUp(BringUpChecks.Spec spec, PrintStream console) {
        return bringUp(new BringUpChecks(spec).run(), console);
    }

    /** Prints results already made, one a line; true when every one passed. */
    public static boolean bringUp(List<BringUpChecks.CheckResult> results, PrintStream console) {
        results.forEach(f -> console.println("bring-up: " + f));
        if (!BringUpChecks.CheckResult.allPassed(results)) {
            console.println("bring-up checks failed: no load offered");
            return false;
        }
        return true;
    }

    /** The counter body templates' {@code ${seq}} draw from in this series (the bring-up shares it). */
    public java.util.concurrent.atomic.AtomicLong seriesCounter() {
        return seriesCounter;
    }

    /** Runs the series and returns once the analyzer has decided it. */
    public Result run(SeriesPlan plan, Options options) {
        return run(plan, options, SeriesRunner.RepeatListener.NONE);
    }

    /** Runs the series, telling {@code repeats} as each repeat starts and ends; returns once it is decided. */
    public Result run(SeriesPlan plan, Options options, SeriesRunner.RepeatListener repeats) {
        if (loops != null) {
            return run(plan, options, repeats, loops);
        }
        // the series' own: every repeat's generator run uses them, closed when the series is decided
        try (ClientLoops own = ClientLoops.open(GeneratorOptions.defaults().ioThreads())) {
            return run(plan, options, repeats, own);
        }
    }

    private Result run(SeriesPlan plan, Options options, SeriesRunner.RepeatListener repeats, ClientLoops loops) {
        AtomicInteger currentRep = new AtomicInteger();
        PgUrl db = options.database();
        // the per-second console line is the analyzer's (LiveAnalysis), not the generator's
        GeneratorOptions genOptions = GeneratorOptions.defaults().withClientLoops(loops).withSeriesCounter(seriesCounter)
                .withIdleTimeout(plan.load().idleTimeout()).withJournalDir(options.journalDir());
        Denominator.Spec denominator = denominator(plan, db, options.tenant());
        Map<String, String> urls = new java.util.LinkedHashMap<>();
        SeriesRunner.scenariosOf(plan, 1, plan.load().maxInFlight(), io.rigscope.generator.plan.LoopMode.OPEN)
                .forEach(sc -> urls.put(sc.name(), sc.url().toString()));
        // one console line per distinct failure of the load (refused, timed out, failed its check), never a trace
        RecordSink sink = new LiveAnalysis.FailureLines(RecordSink.of(publisher), urls, console);
        SeriesRunner runner = new SeriesRunner(plan, sink, genOptions,
                db == null || plan.reconciliationSql() == null ? null : new Reconciliation(db, plan.reconciliationSql()),
                denominator, currentRep, console)
                .onRepeat(repeats);
        runner.start(options.environment());

        Scheduler telemetryThread = Schedulers.newSingle("rig-telemetry", true);
        WaitsTally waits = new WaitsTally();
        CollectorContext telemetryCtx = new CollectorContext(plan.series(), currentRep::get, "local", Clock.systemUTC());
        List<reactor.core.publisher.Flux<io.rigscope.model.wire.WireRecord>> telemetry = new java.util.ArrayList<>();
        if (options.telemetry() != null) {
            io.rigscope.collectors.CollectorSet local = TelemetrySources.local(options.telemetry(), telemetryCtx);
            if (options.remoteTelemetry() != null) {
                local = local.only(local.names().stream()
                        .filter(n -> !io.rigscope.rig.rds.RdsRig.REPLACED_LOCAL.contains(n)).toList());
            }
            telemetry.add(local.merged());
        }
        if (options.remoteTelemetry() != null) {
            telemetry.add(options.remoteTelemetry().apply(telemetryCtx).merged());
        }
        Disposable collecting = telemetry.isEmpty() ? () -> { }
                : reactor.core.publisher.Flux.merge(telemetry).publishOn(telemetryThread).doOnNext(waits::accept)
                        .subscribe(publisher::publish, e -> console.println("telemetry stopped: " + e.getMessage()));
        ExportTargets.Sinks push = options.pushTo() == null ? null : options.pushTo().open(console);
        // the analysis' verdicts and dead letters go through a write-ahead journal of their own, analyze-<series>
        JournaledPublisher verdicts = options.journalDir() == null ? null : JournaledPublisher.open(bootstrap,
                options.journalDir(), "analyze-" + plan.series(), codec,
                WirePublisher.Options.defaults().withClientId("rigscope-analyzer"));
        try (verdicts; LiveAnalysis analysis = LiveAnalysis.start(new WireSource(bootstrap, codec),
                verdicts == null ? publisher : verdicts.publisher(),
                Analyzer.forSeries(plan.series()), console,
                stop -> runner.stopRepeat(stop.rep(), stop.abort().facts()), push == null ? d -> { } : push)) {
            runner.withPgLog(options.telemetry() == null ? null : options.telemetry().pgLogFile())
                    .beforeDenominator((lastRep, planned) -> {
                        // every repeat's lines printed before pgbench's; the values the ingest check accepted
                        List<RepeatSummary> decided = analysis.awaitRepeats(lastRep, DECIDED_BEFORE_DENOMINATOR);
                        return acceptedQuantity(plan, db, options.tenant(), planned, decided);
                    });
            SeriesRunner.Outcome outcome = runner.run();
            SeriesReport report = analysis.await(options.analyzerTimeout());
            publisher.flush();
            if (verdicts != null) {
                verdicts.flush();
            }
            if (push != null) {
                push.close();
            }
            Result result = new Result(outcome, report, verdicts == null ? null : verdicts.notPublishedLine());
            print(plan, result);
            List<String> waitLines = waits.lines(4);
            if (!waitLines.isEmpty()) {
                console.println("wait events by repeat (rig.waits):");
                waitLines.forEach(line -> console.println("  " + line));
            }
            writeReports(report, analysis.material(), options);
            return result;
        } finally {
            if (push != null) {
                push.close(); // once: a second close is nothing
            }
            collecting.dispose();
            telemetryThread.dispose();
        }
    }

    /** How long the denominator waits for the analyzer to print the repeats before it. */
    private static final Duration DECIDED_BEFORE_DENOMINATOR = Duration.ofSeconds(30);

    /**
     * The denominator with the quantities the ingest check accepted, when the file's insert draws {@code ${quantity}}
     * and gives no {@code denominator.quantity}: the mean quantity of the events the analyzer counted as claimed (in
     * 2xx answers that passed their checks), a value between accepted ones, so that a CHECK the service's refusals
     * met does not abort pgbench. {@code planned} as it is otherwise.
     */
    Denominator.Spec acceptedQuantity(SeriesPlan plan, PgUrl db, String tenant, Denominator.Spec planned,
                                      List<RepeatSummary> decided) {
        SeriesPlan.DenominatorSpec d = plan.denominator();
        if (d == null || d.insert() == null || d.quantity() != null || !d.insert().contains("${quantity}")) {
            return planned;
        }
        long events = decided.stream().mapToLong(RepeatSummary::eventsClaimed).sum();
        long qty = decided.stream().mapToLong(RepeatSummary::qtyClaimed).sum();
        if (events == 0) {
            return planned;
        }
        long mean = Math.round((double) qty / events);
        console.printf(Locale.ROOT, "== denominator quantity %d: the mean of the %,d events the ingest check accepted "
                + "(denominator.quantity sets it)%n", mean, events);
        Denominator.Spec spec = denominator(plan, db, tenant, new SeriesPlan.QuantityRange(mean, mean));
        return spec == null ? planned : spec;
    }

    /**
     * How pgbench measures the database alone: the file's own row ({@code denominator.insert}) at the ingest
     * batch, else the reference SUT's row for the tenant; null when there is no denominator, no database, or
     * neither a row nor a tenant.
     */
    static Denominator.Spec denominator(SeriesPlan plan, PgUrl db, String tenant) {
        return denominator(plan, db, tenant, null);
    }

    /** {@link #denominator(SeriesPlan, PgUrl, String)} drawing {@code quantity} when it is not null. */
    static Denominator.Spec denominator(SeriesPlan plan, PgUrl db, String tenant, SeriesPlan.QuantityRange quantity) {
        SeriesPlan.DenominatorSpec d = plan.denominator();
        if (d == null || db == null) {
            return null;
        }
        if (d.insert() != null) {
            var ingest = plan.requests() != null ? plan.requests().ingestScenario(plan.target()).body() : null;
            var customers = ingest != null ? ingest.customers()
                    : new io.rigscope.generator.plan.CustomerPool.Ranged(plan.load().customerFormat(), 1,
                            plan.load().customers());
            SeriesPlan.QuantityRange q = quantity != null ? quantity : d.quantity() != null ? d.quantity()
                    : new SeriesPlan.QuantityRange(ingest == null ? 1 : ingest.quantityMin(),
                            ingest == null ? 100 : ingest.quantityMax());
            String script = io.rigscope.rig.denominator.Denominator.InsertTemplate.check(d.insert(), "denominator.insert")
                    .script(plan.load().batch(), customers, q.min(), q.max());
            return new Denominator.Spec(db, plan.load().batch(), d.duration(), d.clients(), tenant, null, script);
        }
        return tenant == null ? null
                : new Denominator.Spec(db, plan.load().batch(), d.duration(), d.clients(), tenant, null);
    }

    /** The series' closing lines: every figure is the report's (the analyzer's). */
    private void print(SeriesPlan plan, Result result) {
        SeriesReport report = result.report();
        console.println();
        console.println("== series " + plan.series() + ": " + report.headline());
        console.println("freeze-seconds by cause: " + report.freezeSecondsByCauseLine());
        console.println("episodes: " + report.episodesLine());
        console.println(ReportFiles.markdown(report));
        List<RepeatSummary> rungs = report.repeats().stream().filter(r -> r.kind() == RepeatSummary.Kind.LADDER)
                .toList();
        if (!rungs.isEmpty()) {
            console.println("ladder (offered -> delivered: requests that did not fail / scheduled, the analyzer's):");
            for (RepeatSummary r : rungs) {
                double offered = result.outcome().repeats().stream().filter(o -> o.rep() == r.rep())
                        .mapToDouble(SeriesRunner.RepeatOutcome::requestsPerSec).findFirst().orElse(0);
                GateResult delivered = r.gates().get("delivered_ratio");
                double ratio = delivered != null && delivered.value() instanceof Number n ? n.doubleValue() : 0;
                console.printf(Locale.ROOT, "  rep %d: %6.0f req/s -> %6.0f req/s (%5.1f %%), %d dropped, p99 %s ms%n",
                        r.rep(), offered, offered * ratio, 100 * ratio, r.dropped(), r.p99Ms());
            }
        }
        Ceiling ceiling = report.ceiling();
        if (ceiling != null) {
            console.printf(Locale.ROOT, "ceiling: %.0f events/s closed loop at batch %d (a maximum, not a service "
                    + "level)%n", ceiling.eventsPerSec(), plan.load().batch());
            if (ceiling.ratio() != null) {
                console.printf(Locale.ROOT, "denominator: rigscope %.0f ev/s beside the database alone %.0f rows/s "
                        + "(ratio %.2f)%n", ceiling.eventsPerSec(), ceiling.denominatorRowsPerSec(), ceiling.ratio());
            }
        }
    }

    private void writeReports(SeriesReport report, ReportMaterial kept, Options options) {
        try {
            if (options.reportJson() != null) {
                Files.write(withParent(options.reportJson()), ReportFiles.json(report));
                console.println("report: " + options.reportJson());
            }
            if (options.reportMd() != null) {
                Files.writeString(withParent(options.reportMd()), ReportFiles.markdown(report));
                console.println("report: " + options.reportMd());
            }
            if (options.reportHtml() != null) {
                Files.writeString(withParent(options.reportHtml()), kept.html(report));
                console.println("report: " + options.reportHtml());
            }
            if (options.hlogDir() != null) {
                kept.writeIntervalLogs(options.hlogDir()).forEach(f -> console.println("interval log: " + f));
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot write the report: " + e, e);
        }
    }

    /** The file, once its directory exists (a report may go to a directory not made yet, as analyze's may). */
    private static Path withParent(Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        return file;
    }
}
