package io.rigscope.rig.cli;

import io.rigscope.collectors.sources.TelemetrySources;
import io.rigscope.localenv.postgres.PrivatePostgres;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.model.wire.Environment;
import io.rigscope.pg.PgUrl;
import io.rigscope.rig.bringup.BringUpChecks;
import io.rigscope.rig.environment.EnvironmentFacts;
import io.rigscope.rig.options.KafkaOptions;
import io.rigscope.rig.options.PgTarget;
import io.rigscope.rig.options.UsageException;
import io.rigscope.rig.pricing.PriceTable;
import io.rigscope.rig.rds.RdsRig;
import io.rigscope.rig.series.SeriesFile;
import io.rigscope.rig.series.SeriesPlan;
import io.rigscope.rig.series.SeriesSession;
import io.rigscope.rig.sutproc.SutProcess;
import io.rigscope.sut.schema.Migrations;
import io.rigscope.wire.WirePublisher;
import io.rigscope.wire.kafka.KafkaClients;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One series file run end to end, what {@code run} and {@code demo} share: the reference SUT in its own JVM when
 * the file names no target, its bring-up checks, the environment facts, the local collectors watching the file's
 * tables, and the {@link SeriesSession}. Everything the rig knows of the service comes from the file (or, for
 * the reference SUT rigscope starts, from {@code SutContract} where the file is silent).
 */
final class SeriesLaunch {

    /** How long the reference SUT may take to print its URL (JVM start, migrations, pool warm-up). */
    static final Duration SUT_START_TIMEOUT = Duration.ofSeconds(60);

    private SeriesLaunch() {
    }

    /**
     * Runs the series.
     *
     * @param target the database (owned private cluster or {@code --pg}), or null when there is none
     * @param journalDir the generator's write-ahead sample journal ({@link KafkaOptions#journalDir()})
     * @return the session's result, or empty when bring-up failed (no load was offered) or records could not be
     *     published (said on the console)
     */
    static Optional<SeriesSession.Result> run(SeriesFile file, PgTarget target, KafkaClients bootstrap,
                                              WirePublisher publisher, WireCodec codec, SeriesOutputOptions output,
                                              Path journalDir, PrintStream console) {
        PgUrl database = target == null ? null : target.url();
        SeriesPlan plan = file.plan();
        SutProcess sut = null;
        SeriesSession session = new SeriesSession(bootstrap, publisher, codec, console);
        try {
            // an RDS instance is described, and its telemetry and zone checked, before anything starts
            RdsRig rds = file.rds() == null ? null : RdsRig.prepare(file.rds(), PriceTable.bundled(), console);
            if (file.startSut()) {
                Path log = SutProcess.newLogFile();
                console.printf("sut: starting the reference SUT in its own JVM (output in %s)%n", log);
                sut = SutProcess.start(new SutProcess.Spec(database, Migrations.APP_ROLE, file.sutAppPassword(),
                        file.sutTouch(), file.sutInsert(), file.effectiveTenant(), file.effectiveApiKey(),
                        SUT_START_TIMEOUT, log));
                plan = file.planFor(sut.baseUri());
                console.printf("sut: usage-events API on %s (pid %d; touch %s, insert %s; log %s)%n", sut.baseUri(),
                        sut.pid(), file.sutTouch(), file.sutInsert(), sut.logFile());
                if (!SeriesSession.bringUp(new BringUpChecks.Spec(database, Migrations.APP_ROLE,
                        file.sutAppPassword(), plan.target(), plan.apiKey(), plan.load().batch(),
                        BringUpChecks.DEFAULT_COUNT_SQL), console)) {
                    return Optional.empty();
                }
                io.rigscope.rig.sutproc.SutProcess.SutWarmup.run(plan, console);
            }
            plan.describeRequests().forEach(line -> console.println("series: " + line));
            if (!file.startSut() && plan.requests() != null) {
                if (database == null || plan.reconciliationSql() == null) {
                    console.println("bring-up: write-through not checked (no database or no reconciliation_sql to "
                            + "find the rows with)");
                } else if (!SeriesSession.bringUp(List.of(new BringUpChecks.ServiceWriteThrough(
                        plan.requests().ingestScenario(plan.target()), database, plan.reconciliationSql(),
                        session.seriesCounter()).run()),
                        console)) {
                    return Optional.empty();
                }
            }
            if (plan.reconciliationSql() == null) {
                console.println("reconciliation: the series file gives no reconciliation_sql for a service rigscope "
                        + "did not start: every repeat will be UNRECONCILED (not an error; add reconciliation_sql "
                        + "and database to reconcile)");
            } else if (database == null) {
                console.println("reconciliation: no database (`database` in the file or --pg): every repeat will "
                        + "be UNRECONCILED");
            }
            Optional<PrivatePostgres> cluster = target == null ? Optional.empty() : target.cluster();
            Path pgData = cluster.map(PrivatePostgres::dataDir).orElse(file.pgData());
            if (pgData == null && database != null && rds == null) {
                pgData = localDataDirectory(database).orElse(null);
                if (pgData != null) {
                    console.println("disk: the database is on this host, its data directory " + pgData
                            + " (the server's data_directory): the disk view and canary measure its filesystem");
                }
            }
            if (pgData != null && !java.nio.file.Files.isDirectory(pgData)) {
                throw new UsageException("pgdata " + pgData + " is not a directory on this host (leave pgdata out "
                        + "for a database on another host: then no local disk is measured)");
            }
            Path dataDir = pgData != null ? pgData : Path.of("").toAbsolutePath();
            Environment environment = database == null ? null
                    : EnvironmentFacts.collect(database, dataDir, file.costPerHour(),
                            file.effectiveWatchTables()).toEnvironment();
            if (rds != null) {
                environment = rds.environment(environment, file.costPerHour());
                RdsRig.Cost cost = rds.cost(file.costPerHour());
                console.println("cost: " + (cost.usdPerHour() == null ? "no known price" : String.format(
                        java.util.Locale.ROOT, file.costPerHour() != null ? "%s per hour" : "%.4f USD/h",
                        cost.usdPerHour())) + " (" + cost.source() + ")");
            }
            console.printf("series %s: %s%n", plan.series(), plan.describe());
            Path pgLog = file.pgLog() != null ? file.pgLog() : cluster.map(PrivatePostgres::logFile).orElse(null);
            TelemetrySources.Local telemetry = new TelemetrySources.Local(database, pgLog, file.pgLogPrefix(), false,
                    pgData, file.effectiveWatchTables(), null);
            if (sut != null) {
                telemetry = telemetry.withServicePid(sut.pid()); // the SUT's process: rig.process
            } else if (file.servicePid() != null) {
                long pid = file.servicePid();
                if (ProcessHandle.of(pid).isEmpty()) {
                    throw new UsageException("target.pid " + pid + ": no such process on this host (the process "
                            + "collector reads /proc/" + pid + "; give the pid of the service on the host rigscope "
                            + "runs on, or leave target.pid out)");
                }
                telemetry = telemetry.withServicePid(pid); // the user's service: rig.process
                console.printf("process: watching the service's process, pid %d (target.pid), as rig.process%n", pid);
            }
            if (rds != null) {
                telemetry = telemetry.withoutLocalDisk();
                console.println(rds.describe());
            } else if (pgData == null) {
                telemetry = telemetry.withoutLocalDisk();
                console.println("disk: no pgdata, and the database's data directory is not on this host (or not "
                        + "readable): its disk is not measured (no os, no canary; give pgdata when it runs here)");
            }
            SeriesSession.Result result = session.run(plan,
                    new SeriesSession.Options(database, file.effectiveTenant(), telemetry, environment,
                            output.reportJson, output.reportMd,
                            rds == null ? null : RdsRig.ANALYZER_TIMEOUT, output.reportHtml).withHlog(output.hlog)
                            .withRemoteTelemetry(rds == null ? null : rds::collectors)
                            .withJournal(journalDir)
                            .withPush(output.export.targets(file.prometheusRw())));
            publisher.flush();
            if (publisher.failed() > 0) {
                // records Kafka never took (a broker away longer than the producer's delivery timeout): the topics,
                // and so the analysis and any replay, lack them
                console.printf("kafka: %d record(s) of the series were not published (last error: %s); the report "
                        + "judged only what reached the topics; the samples among them are in the journal %s: "
                        + "'rigscope recover' publishes them%n", publisher.failed(), publisher.lastError(),
                        journalDir);
                return Optional.empty();
            }
            if (result.verdictsNotPublished() != null) {
                // the report is complete (the analyzer judged every record), its verdicts not all on rig.verdicts
                console.println(result.verdictsNotPublished());
                return Optional.empty();
            }
            return Optional.of(result);
        } finally {
            if (sut != null) {
                sut.close();
            }
        }
    }

    /**
     * The data directory of a database on this host: the server's {@code data_directory} (a superuser's or
     * {@code pg_read_all_settings}'s to read) when the URL's host is a loopback address and the path is a directory
     * here; empty otherwise, and for any error (the disk is then not measured, and the run says so).
     */
    static Optional<Path> localDataDirectory(PgUrl database) {
        String host = database.host();
        boolean loopback = host.startsWith("/") || host.equals("localhost") || host.startsWith("127.")
                || host.equals("::1") || host.equals("[::1]");
        if (!loopback) {
            return Optional.empty();
        }
        try {
            List<String> dirs = io.rigscope.sut.db.Sql.blockList(database.connectionFactory("rigscope-pgdata"),
                    Duration.ofSeconds(10), "SELECT current_setting('data_directory') AS d",
                    r -> r.get("d", String.class));
            Path dir = dirs.isEmpty() || dirs.get(0) == null ? null : Path.of(dirs.get(0));
            return dir != null && java.nio.file.Files.isDirectory(dir) ? Optional.of(dir) : Optional.empty();
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }
}
