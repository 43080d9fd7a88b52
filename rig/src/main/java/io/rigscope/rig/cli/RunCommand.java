package io.rigscope.rig.cli;

import io.rigscope.collectors.TelemetrySources;
import io.rigscope.localenv.kafka.KafkaEndpoint;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.rig.method.BringUpChecks;
import io.rigscope.rig.method.EnvironmentFacts;
import io.rigscope.rig.series.SeriesFile;
import io.rigscope.rig.series.SeriesPlan;
import io.rigscope.rig.series.SeriesSession;
import io.rigscope.sut.RunningSut;
import io.rigscope.sut.Sut;
import io.rigscope.sut.SutConfig;
import io.rigscope.sut.auth.ApiKeys;
import io.rigscope.sut.db.PgUrl;
import io.rigscope.sut.ingest.EventWriter;
import io.rigscope.sut.schema.Provisioning;
import io.rigscope.wire.WirePublisher;
import io.rigscope.wire.kafka.TopicAdmin;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code rigscope run --config series.yaml}: bring-up checks, then the ladder, the sustained repeats (each
 * reconciled), the ceiling and the denominator, with the local collectors and the live analyzer; exits 0 when
 * every gate held, 99 when one failed.
 */
@Command(name = "run", header = "Run a series from a YAML config: bring-up, ladder, sustained repeats, ceiling, denominator.",
        mixinStandardHelpOptions = true,
        description = {"Run a series from a config file: bring-up checks, ladder, sustained repeats (reconciled), "
            + "ceiling and denominator, with collectors and the live analyzer. Exits 0 (gates held) or 99."})
public final class RunCommand implements Callable<Integer> {

    @Mixin
    KafkaOptions kafka = new KafkaOptions();

    @Option(names = "--config", required = true, paramLabel = "FILE", description = "The series config (YAML).")
    Path config;

    @Option(names = "--series", paramLabel = "ID", description = "Override the series id.")
    String series;

    @Mixin
    SeriesOutputOptions output = new SeriesOutputOptions();

    @Override
    public Integer call() {
        if (!Files.isRegularFile(config)) {
            throw new UsageException("--config " + config + ": no such file");
        }
        String fallbackId = "series-" + DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC)
                .format(Clock.systemUTC().instant());
        SeriesFile file = SeriesFile.read(config, series, fallbackId);
        PgUrl database = file.database() == null ? null : PgTarget.parse(file.database());
        PrintStream console = System.out;
        WireCodec codec = new WireCodec();
        try (KafkaEndpoint endpoint = kafka.open();
             WirePublisher publisher = new WirePublisher(endpoint.bootstrap(), codec,
                     WirePublisher.Options.defaults().withOutFile(output.out).withClientId("rigscope-run"))) {
            try (TopicAdmin admin = new TopicAdmin(endpoint.bootstrap())) {
                admin.ensureTopics();
            }
            RunningSut sut = null;
            try {
                SeriesPlan plan = file.plan();
                String appUser = null;
                String appPassword = null;
                if (file.startSut()) {
                    SutConfig sutConfig = SutConfig.defaults(database).withMigrate(true)
                            .withApp(io.rigscope.sut.schema.Migrations.APP_ROLE, file.sutAppPassword())
                            .withTouch("every-request".equals(file.sutTouch()) ? ApiKeys.Touch.EVERY_REQUEST
                                    : ApiKeys.Touch.PER_MINUTE)
                            .withInsert("per-event".equals(file.sutInsert()) ? EventWriter.InsertMode.PER_EVENT
                                    : EventWriter.InsertMode.MULTI_ROW);
                    sut = Sut.start(sutConfig);
                    appUser = sutConfig.appUser();
                    appPassword = sutConfig.appPassword();
                    plan = file.planFor(sut.baseUri());
                    console.printf("sut: reference usage-events API on %s%n", sut.baseUri());
                }
                Map<String, Object> environment = Map.of();
                if (database != null) {
                    if (appUser != null) {
                        if (!SeriesSession.bringUp(new BringUpChecks.Spec(database, appUser,
                                appPassword, plan.target(), plan.apiKey(), plan.load().batch(),
                                BringUpChecks.DEFAULT_COUNT_SQL), console)) {
                            return ExitCodes.ERROR;
                        }
                    }
                    environment = EnvironmentFacts.collect(database, Path.of("").toAbsolutePath(), file.costPerHour())
                            .toMarkerData();
                }
                console.printf("series %s: %s%n", plan.series(), plan.describe());
                TelemetrySources.Local telemetry = new TelemetrySources.Local(
                        database == null ? null : database.r2dbc(), file.pgLog(), null, false, null,
                        List.of("usage_events"), null);
                SeriesSession.Result result = new SeriesSession(endpoint.bootstrap(), publisher, codec, console)
                        .run(plan, new SeriesSession.Options(database, Provisioning.DEMO_TENANT, telemetry, environment,
                                output.reportJson, output.reportMd, null));
                return result.passed() ? ExitCodes.OK : ExitCodes.GATES_FAILED;
            } finally {
                if (sut != null) {
                    sut.close();
                }
            }
        }
    }
}
