package io.rigscope.rig.cli;

import io.rigscope.collectors.TelemetrySources;
import io.rigscope.localenv.kafka.KafkaEndpoint;
import io.rigscope.localenv.postgres.PrivatePostgres;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.rig.demo.DemoPlan;
import io.rigscope.rig.method.BringUpChecks;
import io.rigscope.rig.method.EnvironmentFacts;
import io.rigscope.rig.series.SeriesPlan;
import io.rigscope.rig.series.SeriesSession;
import io.rigscope.sut.RunningSut;
import io.rigscope.sut.Sut;
import io.rigscope.sut.SutConfig;
import io.rigscope.sut.auth.ApiKeys;
import io.rigscope.sut.db.PgUrl;
import io.rigscope.sut.schema.Provisioning;
import io.rigscope.wire.WirePublisher;
import io.rigscope.wire.kafka.TopicAdmin;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code rigscope demo}: the whole rig on one machine. Starts (or finds) the embedded broker, a private
 * PostgreSQL cluster it configures and throws away (or {@code --pg}), the reference SUT, the local collectors
 * and the live analyzer; runs a short ladder and a short sustained series with the read probe, reconciles
 * each repeat, runs the ceiling and the denominator, prints the series verdict and exits 0 or 99 by the gates.
 */
@Command(name = "demo", header = "Run the whole rig here on a private PostgreSQL and the reference SUT; exit 0 or 99.",
        mixinStandardHelpOptions = true,
        description = {"Run the whole rig here: broker, private PostgreSQL, the reference SUT, collectors, the live "
            + "analyzer; a short ladder and sustained series with the read probe; exits 0 (gates held) or 99."})
public final class DemoCommand implements Callable<Integer> {

    @Mixin
    KafkaOptions kafka = new KafkaOptions();

    @Option(names = "--pg", paramLabel = "URL",
            description = "Use this PostgreSQL (postgresql://user[:pw]@host:port/db; it must allow the SUT's "
                    + "migrations) instead of a private cluster. Its settings are never changed.")
    String pg;

    @Option(names = "--app-password", paramLabel = "PW",
            description = "With --pg: the password set on (and used by) the SUT's app role, for servers that "
                    + "do not trust local connections.")
    String appPassword;

    @Option(names = "--quick", description = "Shorten everything to under a minute (smoke test).")
    boolean quick;

    @Option(names = "--provoke", paramLabel = "WALL",
            description = "Provoke a published wall on purpose: hot-row (the API key touched in every request).")
    String provoke;

    @Option(names = "--durable", description = {"Keep synchronous_commit=on in the private cluster. By default the demo "
        + "runs it with synchronous_commit=off so that a virtual disk's fsync stalls (which the canary shows) do not "
        + "decide the demo; a benchmark of your own service uses its own settings (--pg, rigscope run)."})
    boolean durable;

    @Option(names = "--series", paramLabel = "ID", description = "The series id (default: demo-<UTC time>).")
    String series;

    @Mixin
    SeriesOutputOptions output = new SeriesOutputOptions();

    @Override
    public Integer call() {
        boolean hotRow = provoke != null;
        if (hotRow && !"hot-row".equals(provoke)) {
            throw new UsageException("--provoke '" + provoke + "' is not a wall this demo knows; one of: hot-row");
        }
        String id = series != null ? series : "demo-" + DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")
                .withZone(ZoneOffset.UTC).format(Clock.systemUTC().instant());
        PrintStream console = System.out;
        long startNs = System.nanoTime();
        WireCodec codec = new WireCodec();
        try (KafkaEndpoint endpoint = kafka.open();
             PgTarget target = PgTarget.resolve(pg, PrivatePostgres.Options.defaults()
                     .with("autovacuum_naptime", "'1s'").with("shared_buffers", "'256MB'")
                     .with("max_wal_size", "'2GB'")
                     .with("synchronous_commit", durable ? "on" : "off"));
             WirePublisher publisher = new WirePublisher(endpoint.bootstrap(), codec,
                     WirePublisher.Options.defaults().withOutFile(output.out).withClientId("rigscope-demo"))) {
            try (TopicAdmin admin = new TopicAdmin(endpoint.bootstrap())) {
                admin.ensureTopics();
            }
            PgUrl owner = target.url();
            if (target.owned()) {
                console.println("postgres: private cluster with autovacuum_naptime=1s, shared_buffers=256MB, "
                        + "max_wal_size=2GB, synchronous_commit=" + (durable ? "on" : "off (--durable for on)"));
            }
            SutConfig sutConfig = SutConfig.defaults(owner).withMigrate(true)
                    .withApp(io.rigscope.sut.schema.Migrations.APP_ROLE, appPassword)
                    .withTouch(hotRow ? ApiKeys.Touch.EVERY_REQUEST : ApiKeys.Touch.PER_MINUTE);
            try (RunningSut sut = Sut.start(sutConfig)) {
                console.printf("sut: usage-events API on %s (touch %s, insert %s)%n", sut.baseUri(),
                        sutConfig.touch(), sutConfig.insert());
                SeriesPlan plan = DemoPlan.of(id, sut.baseUri(), Provisioning.DEMO_API_KEY, quick, hotRow);

                if (!SeriesSession.bringUp(new BringUpChecks.Spec(owner, sutConfig.appUser(),
                        sutConfig.appPassword(), sut.baseUri(), Provisioning.DEMO_API_KEY, plan.load().batch(),
                        BringUpChecks.DEFAULT_COUNT_SQL), console)) {
                    return ExitCodes.ERROR;
                }

                Path dataDir = target.cluster().map(PrivatePostgres::dataDir).orElse(Path.of("").toAbsolutePath());
                EnvironmentFacts env = EnvironmentFacts.collect(owner, dataDir, null);
                console.printf("series %s: %s%n", id, plan.describe());
                SeriesSession.Options options = new SeriesSession.Options(owner, Provisioning.DEMO_TENANT,
                        new TelemetrySources.Local(owner.r2dbc(),
                                target.cluster().map(PrivatePostgres::logFile).orElse(null), null, false, dataDir,
                                List.of("usage_events", "api_keys"), null),
                        env.toMarkerData(), output.reportJson, output.reportMd, null);
                SeriesSession.Result result = new SeriesSession(endpoint.bootstrap(), publisher, codec, console)
                        .run(plan, options);
                console.printf("demo finished in %.0f s: %s%n", (System.nanoTime() - startNs) / 1e9,
                        result.report().verdict());
                return result.passed() ? ExitCodes.OK : ExitCodes.GATES_FAILED;
            }
        }
    }
}
