package io.rigscope.rig.cli;

import io.rigscope.localenv.kafka.KafkaEndpoint;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.rig.dashboard.Dashboard;
import io.rigscope.rig.options.ExitCodes;
import io.rigscope.rig.options.KafkaOptions;
import io.rigscope.rig.options.KafkaOptions.JournaledPublisher;
import io.rigscope.rig.options.PgTarget;
import io.rigscope.rig.options.UsageException;
import io.rigscope.rig.series.SeriesPlan;
import io.rigscope.rig.series.SeriesFile;
import io.rigscope.rig.series.SeriesSession;
import io.rigscope.wire.WirePublisher;
import io.rigscope.wire.WireSource;
import io.rigscope.wire.kafka.TopicAdmin;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code rigscope run --config series.yaml}: bring-up checks, then the ladder, the sustained repeats (each
 * reconciled by the file's SQL), the ceiling and the denominator, with the local collectors and the live
 * analyzer; exits 0 when every gate held, 99 when one failed. Without {@code target.url} it starts the reference
 * SUT in its own JVM, on {@code --pg} / the file's {@code database}, or on a private cluster when neither is given.
 */
@Command(name = "run", header = "Run a series from a YAML config: bring-up, ladder, sustained repeats, ceiling, denominator.",
        mixinStandardHelpOptions = true,
        description = {"Run a series from a config file: bring-up checks, ladder, sustained repeats (reconciled), "
            + "ceiling and denominator, with collectors and the live analyzer. Exits 0 (gates held) or 99."})
final class RunCommand implements Callable<Integer> {

    @Mixin
    KafkaOptions kafka = new KafkaOptions();

    @Option(names = "--config", required = true, paramLabel = "FILE", description = "The series config (YAML).")
    Path config;

    @Option(names = "--series", paramLabel = "ID", description = "Override the series id.")
    String series;

    @Option(names = "--pg", paramLabel = "URL",
            description = "The database (overrides the file's `database`): " + PgTarget.URL_FORM
                    + ". Without either, a reference SUT runs on a private cluster.")
    String pg;

    @Option(names = "--allow", description = "Run a plan that cannot pass (repeats too short for min_samples, a "
            + "threshold no planned rate meets, a probe over its cap) with a warning, instead of exit 2.")
    boolean allow;

    @Mixin
    SeriesOutputOptions output = new SeriesOutputOptions();

    @Option(names = "--live-prices", description = "With rds: in the file, price the DB instance through the AWS Price "
            + "List API (GetProducts) instead of the bundled price table (docs/rds.md).")
    boolean livePrices;

    @Mixin
    DashboardOptions dashboard = new DashboardOptions();

    @Override
    public Integer call() {
        Dashboard.Options dashboardOptions = dashboard.options();
        SeriesOutputOptions.checkHlog(output.hlog);
        if (!Files.isRegularFile(config)) {
            throw new UsageException("--config " + config + ": no such file");
        }
        String fallbackId = "series-" + DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC)
                .format(Clock.systemUTC().instant());
        SeriesFile file = SeriesFile.read(config, series, fallbackId);
        kafka.fromFile(file.kafkaDeliveryTimeout(), config + ": kafka.delivery_timeout");
        if (livePrices) {
            if (file.rds() == null) {
                throw new UsageException("--live-prices prices an RDS instance: " + config + " has no rds: section");
            }
            file = file.withRds(file.rds().withLivePrices());
        }
        for (SeriesPlan.Check.Problem p : SeriesPlan.Check.problems(file.plan())) {
            // a plan whose every repeat must fail says so before any load
            if (!allow) {
                throw new UsageException(config + ": " + p.line() + " (--allow runs it anyway)");
            }
            System.out.println("warning: " + config + ": " + p.line() + " (running it: --allow)");
        }
        String flag = pg != null ? "--pg" : config + ": database";
        String url = pg != null ? pg : file.database();
        if (url != null) {
            PgTarget.parse(flag, url);   // a bad URL is exit 2 before anything starts
        }
        WireCodec codec = new WireCodec();
        try (KafkaEndpoint endpoint = kafka.open();
             Dashboard board = dashboard.start(dashboardOptions, endpoint.clients(), codec, file.plan().series(),
                     System.out);
             PgTarget target = url != null ? PgTarget.resolve(flag, url) : file.startSut() ? PgTarget.resolve(null) : null;
             WirePublisher publisher = new WirePublisher(endpoint.clients(), codec,
                     WirePublisher.Options.defaults().withOutFile(output.out).withClientId("rigscope-run"))) {
            try (TopicAdmin admin = new TopicAdmin(endpoint.clients())) {
                admin.ensureTopics();
            }
            JournaledPublisher.Leftovers.publish(endpoint, kafka.journalDir(), System.err);
            String id = file.plan().series();
            if (new WireSource(endpoint.clients(), codec).seriesTaken(id, Duration.ofMinutes(2))) {
                // the analyzer and every replay read a series by its key: two runs under one id would be judged as one
                throw new UsageException("series '" + id + "' already has records in Kafka (an earlier run of it): "
                        + "give --series with a new id, or leave `series` out of " + config
                        + " for a time-stamped one");
            }
            Optional<SeriesSession.Result> result = SeriesLaunch.run(file, target, endpoint.clients(), publisher,
                    codec, output, kafka.journalDir(), System.out);
            return result.isEmpty() ? ExitCodes.ERROR : result.get().passed() ? ExitCodes.OK : ExitCodes.GATES_FAILED;
        }
    }
}
