package io.rigscope.rig.calibrate;

import io.rigscope.generator.http.ClientLoops;
import io.rigscope.generator.GeneratorOptions;
import io.rigscope.wire.kafka.KafkaClients;
import io.rigscope.collectors.CollectorContext;
import io.rigscope.collectors.sources.TelemetrySources;
import io.rigscope.localenv.postgres.LoopVolume;
import io.rigscope.localenv.postgres.PrivatePostgres;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.rig.bringup.BringUpChecks;
import io.rigscope.rig.environment.EnvironmentFacts;
import io.rigscope.rig.series.SeriesPlan;
import io.rigscope.rig.series.SeriesRunner;
import io.rigscope.rig.sutproc.SutProcess.SutWarmup;
import io.rigscope.rig.series.SeriesSession;
import io.rigscope.sut.schema.Migrations;
import io.rigscope.sut.schema.Provisioning;
import io.rigscope.pg.PgUrl;
import io.rigscope.rig.sutproc.SutProcess;
import io.rigscope.sut.auth.ApiKeys;
import io.rigscope.wire.WirePublisher;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.GZIPOutputStream;

/**
 * Runs one {@link CalibrationCase} for real, the way {@code rigscope demo} runs a series: a private PostgreSQL
 * cluster configured for the case (thrown away after), the reference SUT on it, the bring-up checks, the discarded
 * warm-up ({@link SutWarmup}), the case's
 * preparation, then a {@link SeriesSession} with the profile's telemetry ({@link CalibrationProfile}: every local
 * collector, or the RDS-shaped set of {@link RdsTelemetry}) and the live analyzer: a warm-up ladder rung
 * (see {@link CasePlans}), then the sustained repeat, with the provocation started and ended with it. Every record
 * published goes to the case's wire file ({@code <case>.jsonl.gz}), from which the telemetry line is read back; the
 * profile judges the result ({@link CalibrationProfile#judge}).
 *
 * <p>Blocking: call from a command thread. The broker is the caller's.
 */
public final class CaseRun {

    /** The cluster every case starts from: the demo's ({@code synchronous_commit=off}: the disk's own stalls
     * stay out of cases that do not need commits to wait for WAL). */
    public static final PrivatePostgres.Options BASE_CLUSTER = PrivatePostgres.Options.defaults()
            .with("autovacuum_naptime", "'1s'").with("shared_buffers", "'256MB'").with("max_wal_size", "'2GB'")
            .with("synchronous_commit", "off");

    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")
            .withZone(ZoneOffset.UTC);

    /**
     * What one run left behind.
     *
     * @param result the case's judgement
     * @param series the series id
     * @param wireFile the gzip wire file (every record of every topic the series published)
     * @param report the analyzer's report
     */
    public record Outcome(CaseResult result, String series, Path wireFile,
                          io.rigscope.analyzer.decision.SeriesReport report) {
    }

    private final KafkaClients bootstrap;
    private final WireCodec codec;
    private final PrintStream console;
    private final CalibrationProfile profile;

    /** Runs cases with every local collector ({@link CalibrationProfile#LOCAL}). */
    public CaseRun(KafkaClients bootstrap, PrintStream console) {
        this(bootstrap, console, CalibrationProfile.LOCAL);
    }

    /**
     * @param bootstrap the broker
     * @param console where the session's live lines go
     * @param profile which telemetry the analyzer gets, and how results are judged
     */
    public CaseRun(KafkaClients bootstrap, PrintStream console, CalibrationProfile profile) {
        this.bootstrap = Objects.requireNonNull(bootstrap, "bootstrap");
        this.codec = new WireCodec();
        this.console = Objects.requireNonNull(console, "console");
        this.profile = Objects.requireNonNull(profile, "profile");
    }

    /**
     * Runs the case.
     *
     * @param wireFile where the series' wire file goes (gzip when its name ends in {@code .gz}; directories are
     *                 created)
     * @param reportJson where to write the report as JSON, or null
     * @param reportMd where to write the report as Markdown, or null
     */
    public Outcome run(CalibrationCase c, Path wireFile, Path reportJson, Path reportMd) {
        return run(c, wireFile, reportJson, reportMd, null);
    }

    /** {@link #run(CalibrationCase, Path, Path, Path)}, also writing the HTML report to {@code reportHtml} (or null). */
    public Outcome run(CalibrationCase c, Path wireFile, Path reportJson, Path reportMd, Path reportHtml) {
        return run(c, wireFile, reportJson, reportMd, reportHtml, null);
    }

    /** {@link #run(CalibrationCase, Path, Path, Path, Path)}, also writing the interval logs into {@code hlogDir}. */
    public Outcome run(CalibrationCase c, Path wireFile, Path reportJson, Path reportMd, Path reportHtml,
                       Path hlogDir) {
        String series = "cal-" + c.name() + "-" + STAMP.format(Clock.systemUTC().instant());
        console.printf("%n=== case %s: %s%n", c.name(), c.recipe());
        try (PrivatePostgres pg = PrivatePostgres.startTemporary(clusterOptions(c))) {
            console.printf("postgres: private PostgreSQL %d cluster at %s (log %s)%n", pg.majorVersion(),
                    pg.libpqUrl("postgres", "postgres"), pg.logFile());
            return runOn(pg, c, series, wireFile, reportJson, reportMd, reportHtml, hlogDir);
        }
    }

    /** The private cluster's options for a case on this run's profile (what {@link #run} starts it with). */
    public PrivatePostgres.Options clusterOptions(CalibrationCase c) {
        return profile.cluster(c.cluster(BASE_CLUSTER));
    }

    /**
     * Runs the case as {@link #run} does, on a cluster the caller started with {@link #clusterOptions} and keeps
     * (so that several series can run on one cluster: {@code rigscope experiment}): the SUT in its own JVM, the
     * bring-up checks, the case's preparation, the series and its provocation, then the SUT is stopped.
     *
     * @param series the series id (new on the broker)
     */
    public Outcome runOn(PrivatePostgres pg, CalibrationCase c, String series, Path wireFile, Path reportJson,
                         Path reportMd, Path reportHtml, Path hlogDir) {
        long startNs = System.nanoTime();
        Path plain = tempFile(c.name());
        // the generator's client loops for this case (its series and its provocation), closed when it ends
        ClientLoops loops = ClientLoops.open(GeneratorOptions.defaults().ioThreads());
        try {
            PgUrl owner = PgUrl.parse("private", pg.libpqUrl("postgres", "postgres"));
            String touch = c.touch() == ApiKeys.Touch.EVERY_REQUEST ? "every-request" : "per-minute";
            io.rigscope.analyzer.decision.SeriesReport report;
            Provoked provoked = new Provoked(c, new CaseContext(pg, Provisioning.DEMO_TENANT, console, loops));
            // the SUT in its own JVM, as run and demo start it: the generator's health measures the generator
            try (SutProcess sut = SutProcess.start(new SutProcess.Spec(owner, Migrations.APP_ROLE, null, touch,
                    "multi-row", Provisioning.DEMO_TENANT, Provisioning.DEMO_API_KEY, Duration.ofSeconds(60),
                    SutProcess.newLogFile(), c.sutPoolSize()));
                 WirePublisher publisher = new WirePublisher(bootstrap, codec,
                         WirePublisher.Options.defaults().withOutFile(plain).withClientId("rigscope-calibrate"))) {
                console.printf("sut: usage-events API on %s (pid %d, touch %s%s; log %s)%n", sut.baseUri(), sut.pid(),
                        touch, c.sutPoolSize() > 0 ? ", pool " + c.sutPoolSize() : "", sut.logFile());
                provoked.ctx = provoked.ctx.withSutPid(sut.pid());
                SeriesPlan plan = c.plan(series, sut.baseUri(), Provisioning.DEMO_API_KEY);
                if (!SeriesSession.bringUp(new BringUpChecks.Spec(owner, Migrations.APP_ROLE, null, sut.baseUri(),
                        Provisioning.DEMO_API_KEY, plan.load().batch(), BringUpChecks.DEFAULT_COUNT_SQL), console)) {
                    throw new IllegalStateException("case " + c.name() + ": bring-up checks failed");
                }
                // warmed as run and demo warm it, before the case prepares its provocation
                SutWarmup.run(plan, console);
                c.prepare(provoked.ctx);
                List<String> tables = List.of("usage_events", "api_keys");
                EnvironmentFacts env = EnvironmentFacts.collect(owner, pg.dataDir(), null, tables);
                console.printf("series %s: %s%n", series, plan.describe());
                // local: the session runs every local collector; rds: none of them, RdsTelemetry runs beside it
                TelemetrySources.Local local = profile == CalibrationProfile.LOCAL
                        ? new TelemetrySources.Local(owner, pg.logFile(), null, false, pg.dataDir(), tables, null)
                                .withCanaryDir(pg.volume().map(LoopVolume::hostDirectory).orElse(null))
                                .withServicePid(sut.pid())
                        : null;
                SeriesSession.Options options = new SeriesSession.Options(owner, Provisioning.DEMO_TENANT, local,
                        env.toEnvironment(), reportJson, reportMd, profile.analyzerTimeout(), reportHtml, hlogDir);
                try (RdsTelemetry rds = profile == CalibrationProfile.RDS ? RdsTelemetry.start(
                        new RdsTelemetry.Source(owner, pg.dataDir(), pg.logFile(), tables),
                        new CollectorContext(series, provoked.rep::get, "local", Clock.systemUTC()),
                        RdsTelemetry.Polls.defaults(), publisher::publish, console) : null) {
                    if (rds != null) {
                        console.println("telemetry: " + rds.describe());
                    }
                    report = new SeriesSession(bootstrap, publisher, codec, console, loops).run(plan, options, provoked)
                            .report();
                    if (rds != null) {
                        console.println("rds stand-in answered: " + rds.calls());
                    }
                } finally {
                    provoked.close();
                }
            }
            Path wire = keep(plain, wireFile);
            String telemetry = c.telemetry(WireTelemetry.read(wire, series));
            CaseResult result = profile.judge(c, c.judge(report, telemetry, provoked.running));
            console.printf("case %s finished in %.0f s; wire file %s%n", c.name(),
                    (System.nanoTime() - startNs) / 1e9, wire);
            return new Outcome(result, series, wire, report);
        } finally {
            loops.close();
            try {
                Files.deleteIfExists(plain);
            } catch (IOException ignored) {
                // a temp file
            }
        }
    }

    /**
     * Starts the provocation with the sustained repeat, ends it with the repeat; keeps the repeat in progress for
     * collectors the session does not run itself (0 between repeats, as the session's own collectors see it).
     */
    private static final class Provoked implements SeriesRunner.RepeatListener, AutoCloseable {
        final CalibrationCase c;
        CaseContext ctx;
        final AtomicInteger rep = new AtomicInteger();
        private Provocation running;

        Provoked(CalibrationCase c, CaseContext ctx) {
            this.c = c;
            this.ctx = ctx;
        }

        @Override
        public void started(int rep, String phase, Duration duration) {
            this.rep.set(rep);
            if ("sustained".equals(phase) && running == null) {
                running = c.provoke(ctx, duration);
            }
        }

        @Override
        public void ended(int rep) {
            this.rep.set(0);
            close();
        }

        @Override
        public void close() {
            if (running != null) {
                running.close();
            }
        }
    }

    private static Path tempFile(String name) {
        try {
            return Files.createTempFile("rigscope-cal-" + name + "-", ".jsonl");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temp wire file", e);
        }
    }

    private static Path keep(Path plain, Path target) {
        try {
            Files.createDirectories(target.toAbsolutePath().getParent());
            try (InputStream in = Files.newInputStream(plain);
                 OutputStream out = target.getFileName().toString().endsWith(".gz")
                         ? new GZIPOutputStream(Files.newOutputStream(target), 1 << 16)
                         : Files.newOutputStream(target)) {
                in.transferTo(out);
            }
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the wire file " + target, e);
        }
    }
}
