package io.rigscope.rig.cli;

import io.rigscope.localenv.kafka.KafkaEndpoint;
import io.rigscope.localenv.postgres.PrivatePostgres;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.rig.dashboard.Dashboard;
import io.rigscope.rig.options.ExitCodes;
import io.rigscope.rig.options.KafkaOptions;
import io.rigscope.rig.options.KafkaOptions.JournaledPublisher;
import io.rigscope.rig.options.PgTarget;
import io.rigscope.rig.options.UsageException;
import io.rigscope.rig.series.SeriesFile;
import io.rigscope.rig.series.SeriesSession;
import io.rigscope.wire.WirePublisher;
import io.rigscope.wire.kafka.TopicAdmin;
import java.io.PrintStream;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code rigscope demo}: the whole rig on one machine, as {@code run} with a built-in series file
 * ({@link DemoPlan}). Starts (or finds) the embedded broker, a private PostgreSQL cluster it configures and
 * throws away (or {@code --pg}), the reference SUT in its own JVM, the local collectors and the live analyzer;
 * runs a short ladder and a short sustained series with the read probe, reconciles each repeat, runs the ceiling
 * and the denominator, prints the series verdict and exits 0 or 99 by the gates.
 */
@Command(name = "demo", header = "Run the whole rig here on a private PostgreSQL and the reference SUT; exit 0 or 99.",
        mixinStandardHelpOptions = true,
        description = {"Run the whole rig here: broker, private PostgreSQL, the reference SUT, collectors, the live "
            + "analyzer; a short ladder and sustained series with the read probe; exits 0 (gates held) or 99."})
final class DemoCommand implements Callable<Integer> {

    @Mixin
    KafkaOptions kafka = new KafkaOptions();

    @Option(names = "--pg", paramLabel = "URL",
            description = "Use this PostgreSQL (" + PgTarget.URL_FORM + "; it must allow the SUT's "
                    + "migrations) instead of a private cluster. Its settings are never changed.")
    String pg;

    @Option(names = "--app-password", paramLabel = "PW",
            description = "With --pg: the password set on (and used by) the SUT's app role, for servers that "
                    + "do not trust local connections.")
    String appPassword;

    @Option(names = "--quick", description = "Shorten everything to under a minute (smoke test).")
    boolean quick;

    @Option(names = "--provoke", paramLabel = "CAUSE",
            description = {"Provoke a tail cause on purpose: hot-row (the API key touched in every request, a ladder into "
            + "the row lock), or wal-pool, vacuum-storm, generator-pause: a short series with that calibration "
            + "case's setup (docs/calibrate.md)."})
    String provoke;

    @Option(names = "--durable", description = {"Keep synchronous_commit=on in the private cluster. By default the demo "
        + "runs it with synchronous_commit=off so that a virtual disk's fsync stalls (which the canary shows) do not "
        + "decide the demo; a benchmark of your own service uses its own settings (--pg, rigscope run)."})
    boolean durable;

    @Option(names = "--series", paramLabel = "ID", description = "The series id (default: demo-<UTC time>).")
    String series;

    @Mixin
    SeriesOutputOptions output = new SeriesOutputOptions();

    @Mixin
    DashboardOptions dashboard = new DashboardOptions();

    @Override
    public Integer call() {
        Dashboard.Options dashboardOptions = dashboard.options();
        SeriesOutputOptions.checkHlog(output.hlog);
        boolean hotRow = provoke != null;
        if (hotRow && !"hot-row".equals(provoke)) {
            if (!ProvokedDemo.CASES.contains(provoke)) {
                throw new UsageException("--provoke '" + provoke + "' is not a cause this demo provokes; one of: "
                        + "hot-row, " + String.join(", ", ProvokedDemo.CASES));
            }
            if (pg != null) {
                throw new UsageException("--provoke " + provoke + " needs a private cluster it configures; drop --pg");
            }
            if (dashboardOptions != null) {
                throw new UsageException("--dashboard with --provoke " + provoke + " is not offered (the case names "
                        + "its series as it starts): run `rigscope dashboard` beside it");
            }
            if (output.export.targets(null).any()) {
                throw new UsageException("--prometheus-rw and --otlp with --provoke " + provoke + " is not offered (the case runs "
                        + "its own series): push it afterwards with `rigscope analyze --series ID --replay "
                        + "--prometheus-rw URL`");
            }
            return ProvokedDemo.run(provoke, kafka, output.out, output.reportJson, output.reportMd, output.reportHtml,
                    output.hlog);
        }
        String id = series != null ? series : "demo-" + DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")
                .withZone(ZoneOffset.UTC).format(Clock.systemUTC().instant());
        if (pg != null) {
            PgTarget.parse(pg);   // a bad URL is exit 2 before anything starts
        }
        SeriesFile file = DemoPlan.file(id, quick, hotRow).withAppPassword(appPassword);
        PrintStream console = System.out;
        long startNs = System.nanoTime();
        WireCodec codec = new WireCodec();
        try (KafkaEndpoint endpoint = kafka.open();
             Dashboard board = dashboard.start(dashboardOptions, endpoint.clients(), codec, id, console);
             PgTarget target = PgTarget.resolve(pg, PrivatePostgres.Options.defaults()
                     .with("autovacuum_naptime", "'1s'").with("shared_buffers", "'256MB'")
                     .with("max_wal_size", "'2GB'")
                     .with("synchronous_commit", durable ? "on" : "off"));
             WirePublisher publisher = new WirePublisher(endpoint.clients(), codec,
                     WirePublisher.Options.defaults().withOutFile(output.out).withClientId("rigscope-demo"))) {
            try (TopicAdmin admin = new TopicAdmin(endpoint.clients())) {
                admin.ensureTopics();
            }
            JournaledPublisher.Leftovers.publish(endpoint, kafka.journalDir(), System.err);
            if (target.owned()) {
                console.println("postgres: private cluster with autovacuum_naptime=1s, shared_buffers=256MB, "
                        + "max_wal_size=2GB, synchronous_commit=" + (durable ? "on" : "off (--durable for on)"));
            }
            console.println("series file: " + DemoPlan.resource(quick, hotRow) + " (built in; `rigscope run "
                    + "--config` with the same file does the same)");
            Optional<SeriesSession.Result> result = SeriesLaunch.run(file, target, endpoint.clients(), publisher,
                    codec, output, kafka.journalDir(), console);
            if (result.isEmpty()) {
                return ExitCodes.ERROR;
            }
            console.printf("demo finished in %.0f s: %s%n", (System.nanoTime() - startNs) / 1e9,
                    result.get().report().verdict());
            return result.get().passed() ? ExitCodes.OK : ExitCodes.GATES_FAILED;
        }
    }
}
