package io.rigscope.rig.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.rigscope.analyzer.report.ReportFiles;
import io.rigscope.localenv.kafka.KafkaEndpoint;
import io.rigscope.localenv.postgres.PrivatePostgres;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.pg.PgUrl;
import io.rigscope.rig.calibrate.Calibration;
import io.rigscope.rig.calibrate.CalibrationCase;
import io.rigscope.rig.calibrate.CaseRun;
import io.rigscope.rig.experiment.Experiment;
import io.rigscope.rig.experiment.Experiment.Treatment;
import io.rigscope.rig.experiment.Experiment.PgSettings;
import io.rigscope.rig.experiment.ExperimentResult;
import io.rigscope.rig.experiment.ExperimentResult.ArmOrder;
import io.rigscope.rig.options.ExitCodes;
import io.rigscope.rig.options.KafkaOptions;
import io.rigscope.rig.options.PgTarget;
import io.rigscope.rig.options.UsageException;
import io.rigscope.rig.series.SeriesFile;
import io.rigscope.rig.series.SeriesPlan;
import io.rigscope.rig.series.SeriesSession;
import io.rigscope.wire.WirePublisher;
import io.rigscope.wire.kafka.TopicAdmin;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code rigscope experiment}: control against treatment on one database, arms alternating (docs/experiment.md).
 * {@code --provoke CAUSE} runs a calibration case's series (its cluster, SUT, load and provocation: the same
 * {@link CaseRun}) once per arm on one private cluster; {@code --config FILE} runs a series file's series once per
 * arm (one sustained repeat, no ceiling, no denominator). The treatment's settings change between arms
 * ({@link Experiment}); the sides are compared by compare's own {@code Comparison}.
 */
@Command(name = "experiment", mixinStandardHelpOptions = true,
        header = "Control against treatment on one database, arms alternating; then compare's verdict.",
        description = {"Runs N control arms and N treatment arms in turn (A1 B1 A2 B2 ...) on one database: a "
            + "private cluster rigscope starts (--provoke, or --config without a database), or yours (--config with "
            + "`database` or --pg, only with --apply-to-my-database). Before each treatment arm the treatment's "
            + "settings are set with ALTER SYSTEM and taken into force (a reload, or a restart for a postmaster "
            + "setting, on a cluster rigscope started only); before each control arm and at the end they are "
            + "written back. Each arm: a fresh usage_events table (the reference SUT's, on a private cluster), a "
            + "CHECKPOINT, then one series with one sustained repeat.",
            "Prints compare's comparison of the two sides (the exact permutation test on the arms' p99 and "
            + "freeze-seconds, docs/compare.md). Exit codes: 0 compared (whatever the verdict), 1 an arm could not "
            + "run, 2 a bad flag or config."})
final class ExperimentCommand implements Callable<Integer> {

    /** The most arms a side: compare's exact test enumerates at most 24 values. */
    static final int MAX_REPEATS = 12;

    @Mixin
    KafkaOptions kafka = new KafkaOptions();

    @Option(names = "--config", paramLabel = "FILE", description = "A series file (as `run --config`): each arm runs "
            + "its series with one sustained repeat, no ceiling, no denominator.")
    Path config;

    @Option(names = "--provoke", paramLabel = "CAUSE", description = "Each arm runs this calibration case's series "
            + "and provocation (wal-pool, vacuum-storm, ...; docs/calibrate.md) on one private cluster.")
    String provoke;

    @Option(names = "--treatment", paramLabel = "KEY=VALUE[,KEY=VALUE]|lever", required = true,
            description = "The Postgres settings of the treatment arms, or `lever`: the settings the first control "
                    + "arm's episodes name as their lever (setting, value and also).")
    String treatment;

    @Option(names = "--repeats", paramLabel = "N", defaultValue = "3",
            description = "Arms a side (default 3, the fewest for a verdict; at most " + MAX_REPEATS + ").")
    int repeats = 3;

    @Option(names = "--json", description = "Print {control, treatment, compare} as JSON on stdout (the live lines "
            + "go to stderr).")
    boolean json;

    @Option(names = "--pg", paramLabel = "URL", description = "With --config: the database (overrides the file's "
            + "`database`): " + PgTarget.URL_FORM + ". Changed only with --apply-to-my-database.")
    String pg;

    @Option(names = "--apply-to-my-database", description = "Allow the treatment's ALTER SYSTEM, reloads and "
            + "CHECKPOINTs on a database rigscope did not start (settings written back after).")
    boolean applyToMyDatabase;

    @Option(names = "--out-dir", paramLabel = "DIR", description = "Keep each arm's wire file (<arm>.jsonl[.gz]) and "
            + "report (<arm>.report.json) here; without it they go to a temp directory.")
    Path outDir;

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")
            .withZone(ZoneOffset.UTC);

    /** The flags, checked before anything starts: a bad one is exit 2 naming it. */
    Treatment checkFlags() {
        if ((config == null) == (provoke == null)) {
            throw new UsageException(config == null ? "give --config FILE or --provoke CAUSE (what each arm runs)"
                    : "--config and --provoke: give one of them");
        }
        Treatment t;
        try {
            t = Treatment.parse(treatment);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--treatment " + treatment + ": " + e.getMessage());
        }
        if (repeats < 1 || repeats > MAX_REPEATS) {
            throw new UsageException("--repeats " + repeats + ": between 1 and " + MAX_REPEATS + " arms a side (3 "
                    + "is the fewest for a verdict)");
        }
        if (provoke != null) {
            if (Calibration.byName(provoke).isEmpty()) {
                throw new UsageException("--provoke '" + provoke + "' is not a cause rigscope provokes; one of: "
                        + Calibration.names());
            }
            if (pg != null) {
                throw new UsageException("--pg with --provoke: a provocation runs on a private cluster it configures; "
                        + "drop --pg");
            }
            if (applyToMyDatabase) {
                throw new UsageException("--apply-to-my-database with --provoke: a provocation runs on a private "
                        + "cluster rigscope starts, never on yours");
            }
        } else if (!Files.isRegularFile(config)) {
            throw new UsageException("--config " + config + ": no such file");
        }
        if (outDir != null && Files.exists(outDir) && !Files.isDirectory(outDir)) {
            throw new UsageException("--out-dir " + outDir + " is a file");
        }
        return t;
    }

    @Override
    public Integer call() {
        Treatment t = checkFlags();
        PrintStream console = json ? System.err : System.out;
        String id = (provoke != null ? "exp-" + provoke : "exp") + "-" + STAMP.format(Clock.systemUTC().instant());
        SeriesFile file = null;
        String database = null;
        if (config != null) {
            file = SeriesFile.read(config, id, id);
            kafka.fromFile(file.kafkaDeliveryTimeout(), config + ": kafka.delivery_timeout");
            database = pg != null ? pg : file.database();
            String flag = pg != null ? "--pg" : config + ": database";
            if (database != null) {
                PgTarget.parse(flag, database);
                if (!applyToMyDatabase) {
                    throw new UsageException("the database " + PgUrl.redact(database) + " (" + flag + ") was not "
                            + "started by rigscope, which changes nothing on it unless told: add "
                            + "--apply-to-my-database to let it " + changes(t));
                }
            } else if (!file.startSut()) {
                throw new UsageException(config + ": no database and a service rigscope did not start: there is no "
                        + "database to apply the treatment to (give `database` or --pg)");
            }
        }
        Path dir = outDir(id);
        long startNs = System.nanoTime();
        Instant started = Instant.now();
        console.printf("experiment %s: %d arm(s) a side, in turn %s; treatment %s; arms' files in %s%n", id, repeats,
                String.join(" ", ArmOrder.of(repeats).stream().map(ArmOrder.Arm::label).toList()), t.describe(), dir);
        ExperimentResult result;
        Map<String, Object> run = new LinkedHashMap<>();
        try (KafkaEndpoint endpoint = kafka.open()) {
            try (TopicAdmin admin = new TopicAdmin(endpoint.clients())) {
                admin.ensureTopics();
            }
            if (provoke != null) {
                CalibrationCase c = Calibration.byName(provoke).orElseThrow();
                CaseRun caseRun = new CaseRun(endpoint.clients(), console);
                console.printf("each arm: case %s: %s%n", c.name(), c.recipe());
                run.put("provoke", c.name());
                run.put("recipe", c.recipe());
                try (PrivatePostgres cluster = PrivatePostgres.startTemporary(caseRun.clusterOptions(c))) {
                    console.printf("postgres: private PostgreSQL %d cluster at %s for every arm (log %s)%n",
                            cluster.majorVersion(), cluster.libpqUrl("postgres", "postgres"), cluster.logFile());
                    PgSettings.Session db = sql -> cluster.psql("postgres", sql);
                    Experiment.Arms arms = new ClusterArms(cluster) {
                        @Override
                        public ExperimentResult.ArmRun run(ArmOrder.Arm arm, String series) {
                            Path wire = dir.resolve(arm.label() + ".jsonl.gz");
                            CaseRun.Outcome o = caseRun.runOn(cluster, c, series, wire,
                                    dir.resolve(arm.label() + ".report.json"), null, null, null);
                            console.println("arm " + arm.label() + ": " + o.result().line());
                            return new ExperimentResult.ArmRun(arm, series, reportJson(o.report()), wire.toString());
                        }
                    };
                    result = runExperiment(db, arms, t, id, console, c.expected());
                }
            } else {
                run.put("config", config.toString());
                SeriesFile f = file;
                WireCodec codec = new WireCodec();
                try (PgTarget target = database != null ? PgTarget.resolve(pg != null ? "--pg" : "database", database)
                        : PgTarget.resolve(null)) {
                    PgSettings.Session db = target.cluster().<PgSettings.Session>map(cl -> sql -> cl.psql(
                            "postgres", sql)).orElseGet(() -> r2dbc(target.url()));
                    if (!target.owned()) {
                        console.println("experiment: on " + target.url().redacted() + " (--apply-to-my-database), "
                                + "rigscope will " + changes(t));
                    }
                    Experiment.Arms arms = new ClusterArms(target.cluster().orElse(null)) {
                        @Override
                        public ExperimentResult.ArmRun run(ArmOrder.Arm arm, String series) {
                            SeriesFile one = oneRepeat(f, series);
                            SeriesOutputOptions output = new SeriesOutputOptions();
                            output.reportJson = dir.resolve(arm.label() + ".report.json");
                            Path wire = dir.resolve(arm.label() + ".jsonl");
                            try (WirePublisher publisher = new WirePublisher(endpoint.clients(), codec,
                                    WirePublisher.Options.defaults().withOutFile(wire)
                                            .withClientId("rigscope-experiment"))) {
                                Optional<SeriesSession.Result> r = SeriesLaunch.run(one, target, endpoint.clients(),
                                        publisher, codec, output, kafka.journalDir(), console);
                                if (r.isEmpty()) {
                                    throw new IllegalStateException("arm " + arm.label() + " (" + series + ") did "
                                            + "not run: bring-up failed or its records were not published");
                                }
                                return new ExperimentResult.ArmRun(arm, series, reportJson(r.get().report()),
                                        wire.toString());
                            }
                        }

                        @Override
                        public void fresh(ArmOrder.Arm arm) {
                            if (target.owned() && f.startSut()) {
                                super.fresh(arm);
                            }
                        }
                    };
                    result = runExperiment(db, arms, t, id, console, null);
                }
            }
        }
        run.put("experiment", id);
        run.put("repeats", repeats);
        run.put("order", ArmOrder.of(repeats).stream().map(ArmOrder.Arm::label).toList());
        run.put("started", started.toString());
        run.put("seconds", Math.round((System.nanoTime() - startNs) / 1e9));
        run.put("out_dir", dir.toString());
        Map<String, Object> doc = new LinkedHashMap<>(run);
        doc.putAll(result.toJson());
        if (provoke != null) {
            String cause = Calibration.byName(provoke).orElseThrow().expected();
            int a = ExperimentResult.freezeSeconds(result.control(), cause);
            int b = ExperimentResult.freezeSeconds(result.treatment(), cause);
            Map<String, Object> removed = new LinkedHashMap<>();
            removed.put("cause", cause);
            removed.put("control_freeze_seconds", a);
            removed.put("treatment_freeze_seconds", b);
            removed.put("removed_pct", a == 0 ? null : Math.round(1000.0 * (a - b) / a) / 10.0);
            doc.put("provoked_cause", removed);
        }
        try {
            Files.write(dir.resolve("experiment.json"), JSON.writeValueAsBytes(doc));
            if (json) {
                System.out.println(JSON.writeValueAsString(doc));
            } else {
                console.println();
                console.println("== experiment " + id + ": treatment " + String.join(", ", result.treatmentSettings()
                        .entrySet().stream().map(e -> e.getKey() + "=" + e.getValue() + " (control "
                                + result.controlSettings().get(e.getKey()) + ")").toList()));
                result.comparison().lines().forEach(console::println);
                result.armsDiffer().forEach(d -> console.println("arms of one side differ: " + d));
                if (doc.get("provoked_cause") instanceof Map<?, ?> m) {
                    console.println("provoked cause " + m.get("cause") + ": control " + m.get("control_freeze_seconds")
                            + " freeze-s, treatment " + m.get("treatment_freeze_seconds") + " freeze-s, removed "
                            + (m.get("removed_pct") == null ? "- (none in the control)" : m.get("removed_pct") + " %"));
                }
                console.printf("experiment finished in %.0f s (report %s)%n", (System.nanoTime() - startNs) / 1e9,
                        dir.resolve("experiment.json"));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return ExitCodes.OK;
    }

    private ExperimentResult runExperiment(PgSettings.Session db, Experiment.Arms arms, Treatment t, String id,
                                           PrintStream console, String preferCause) {
        Experiment experiment = new Experiment(db, arms, console, preferCause);
        if (!t.fromLever()) {
            try {
                Map<String, PgSettings.Setting> before = experiment.check(t.settings());
                console.println("experiment: treatment " + t.describe() + "; now " + String.join(", ", before.values()
                        .stream().map(s -> s.name() + "=" + s.value() + " (" + s.context() + ")").toList()) + "; by "
                        + (PgSettings.takes(before.values()) == PgSettings.Takes.RESTART ? "a restart" : "a reload")
                        + " between arms, written back after");
            } catch (IllegalArgumentException e) {
                throw new UsageException("--treatment " + treatment + ": " + e.getMessage());
            }
        }
        return experiment.run(t, repeats, id);
    }

    /** What the experiment will change on a database, in words. */
    private static String changes(Treatment t) {
        String what = t.fromLever() ? "the settings the first control arm's episodes name as their lever"
                : String.join(", ", t.settings().entrySet().stream().map(e -> e.getKey() + " = '" + e.getValue()
                + "'").toList());
        return "ALTER SYSTEM SET " + what + " and SELECT pg_reload_conf() before each treatment "
                + "arm, write each back as it was (ALTER SYSTEM SET to postgresql.auto.conf's value, or RESET) with a "
                + "reload before each control arm and after the last, and run a CHECKPOINT before every arm; no table "
                + "is emptied, no setting that needs a restart is changed";
    }

    /** The file's series as one arm: one sustained repeat under the arm's id, no ceiling, no denominator. */
    static SeriesFile oneRepeat(SeriesFile f, String series) {
        SeriesPlan p = f.plan();
        SeriesPlan.Sustained s = p.sustained();
        SeriesPlan plan = new SeriesPlan(series, p.target(), p.apiKey(), p.load(), p.ladder(),
                new SeriesPlan.Sustained(s.requestsPerSec(), 1, s.duration(), s.cooldown()), null, null, p.analyzer(),
                p.reconciliationSql(), p.requests());
        return new SeriesFile(plan, f.database(), f.startSut(), f.tenant(), f.watchTables(), f.sutTouch(),
                f.sutInsert(), f.sutAppPassword(), f.pgLog(), f.costPerHour(), f.pgLogPrefix(), f.pgData(),
                f.servicePid(), f.rds(), f.prometheusRw(), f.kafkaDeliveryTimeout());
    }

    private static PgSettings.Session r2dbc(PgUrl url) {
        var factory = url.connectionFactory("rigscope-experiment");
        return sql -> {
            List<String> rows = io.rigscope.sut.db.Sql.blockList(factory, Duration.ofSeconds(120), sql,
                    r -> String.valueOf(r.get(0)));
            return rows == null || rows.isEmpty() ? "" : rows.get(0);
        };
    }

    private static JsonNode reportJson(io.rigscope.analyzer.decision.SeriesReport report) {
        try {
            return JSON.readTree(ReportFiles.json(report));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Path outDir(String id) {
        try {
            return outDir != null ? Files.createDirectories(outDir) : Files.createTempDirectory("rigscope-" + id + "-");
        } catch (IOException e) {
            throw new UsageException("--out-dir " + outDir + ": cannot create it (" + e.getMessage() + ")");
        }
    }

    /** Arms on a cluster rigscope started (restart, fresh table), or on a database it did not (neither). */
    private abstract static class ClusterArms implements Experiment.Arms {
        private final PrivatePostgres cluster;

        ClusterArms(PrivatePostgres cluster) {
            this.cluster = cluster;
        }

        @Override
        public void fresh(ArmOrder.Arm arm) {
            if (cluster != null) {
                // the reference SUT's table, emptied (a new relfilenode); the SUT migrates it on its first start
                cluster.psql("postgres", "DO $$ BEGIN IF to_regclass('public.usage_events') IS NOT NULL THEN "
                        + "TRUNCATE public.usage_events; END IF; END $$");
            }
        }

        @Override
        public void restart() {
            if (cluster == null) {
                throw new IllegalStateException("a restart of a database rigscope did not start");
            }
            cluster.stopServer();
            cluster.startServer();
        }

        @Override
        public boolean canRestart() {
            return cluster != null && !cluster.isEmbedded();
        }
    }
}
