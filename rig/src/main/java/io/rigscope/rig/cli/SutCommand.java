package io.rigscope.rig.cli;

import io.rigscope.rig.options.Durations;
import io.rigscope.rig.options.ExitCodes;
import io.rigscope.rig.options.PgTarget;
import io.rigscope.rig.options.UsageException;
import io.rigscope.sut.RunningSut;
import io.rigscope.sut.Sut;
import io.rigscope.sut.SutConfig;
import io.rigscope.sut.SutStats;
import io.rigscope.sut.auth.ApiKeys;
import io.rigscope.sut.ingest.EventWriter;
import io.rigscope.sut.schema.Provisioning;
import java.time.Duration;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code rigscope sut}: runs the reference system under test and prints a line per second. */
@Command(name = "sut", mixinStandardHelpOptions = true,
        description = {"Run the reference system under test (a usage-events ingest API).",
            "Reactor Netty and R2DBC PostgreSQL (see docs/sut.md). Prints one line per second: requests, events written, errors.",
            "Without --pg it starts a private PostgreSQL cluster, migrates it and throws it away on exit."})
final class SutCommand implements java.util.concurrent.Callable<Integer> {

    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss");

    @Option(names = "--pg", paramLabel = "URL", defaultValue = "${env:RIGSCOPE_PG}",
            description = "The database, as its owner: " + PgTarget.URL_FORM + " (default: $RIGSCOPE_PG, else a "
                    + "private cluster).")
    String pg;

    @Option(names = "--port", paramLabel = "P", description = "TCP port (default: ${DEFAULT-VALUE}; 0 = any free port).")
    int port = 8080;

    @Option(names = "--bind", paramLabel = "HOST", description = "Address to listen on (default: ${DEFAULT-VALUE}).")
    String bind = "127.0.0.1";

    @Option(names = "--migrate", description = "Apply the schema migrations and provision the tenant, key and customers first.")
    boolean migrate;

    @Option(names = "--api-key-touch", paramLabel = "MODE",
            description = "every-request (the hot-row wall) or per-minute (default: ${DEFAULT-VALUE}).")
    String touch = "per-minute";

    @Option(names = "--insert", paramLabel = "MODE", description = "per-event or multi-row (default: ${DEFAULT-VALUE}).")
    String insert = "multi-row";

    @Option(names = "--lossy-one-in", paramLabel = "N",
            description = "Silently skip writing every N-th event while answering as if written (reconciliation test; default 0 = honest).")
    int lossyOneIn;

    @Option(names = "--pool-size", paramLabel = "N", description = "Database connections (default: ${DEFAULT-VALUE}).")
    int poolSize = 16;

    @Option(names = "--app-user", paramLabel = "ROLE", description = "The role the service connects as (default: ${DEFAULT-VALUE}).")
    String appUser = "rigscope_app";

    @Option(names = "--app-password", paramLabel = "PASSWORD", defaultValue = "${env:RIGSCOPE_APP_PASSWORD}",
            description = "The app role's password (default: $RIGSCOPE_APP_PASSWORD, else none); set on the role by --migrate.")
    String appPassword;

    @Option(names = "--api-key", paramLabel = "KEY",
            defaultValue = "${env:RIGSCOPE_API_KEY:-" + Provisioning.DEMO_API_KEY + "}",
            description = "The bearer token --migrate provisions (default: $RIGSCOPE_API_KEY, else "
                + Provisioning.DEMO_API_KEY + ").")
    String apiKey;

    @Option(names = "--tenant", paramLabel = "NAME",
            description = "The tenant --migrate provisions the key for (default: ${DEFAULT-VALUE}).")
    String tenant = Provisioning.DEMO_TENANT;

    @Option(names = "--duration", paramLabel = "DURATION", description = "Stop after this long, e.g. 10m (default: until Ctrl-C).")
    Duration duration;

    @Override
    public Integer call() throws InterruptedException {
        SutConfig config;
        Duration stopAfter = Durations.positive("--duration", duration);
        // Ctrl-C: the hook wakes serve() and waits until the SUT and any private cluster are closed.
        CountDownLatch stop = new CountDownLatch(1);
        CountDownLatch closed = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            stop.countDown();
            try {
                closed.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "sut-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try (PgTarget target = PgTarget.resolve(pg)) {
            try {
                config = SutConfig.defaults(target.url())
                        .withApp(appUser, appPassword)
                        .withListen(bind, port)
                        .withTouch(ApiKeys.Touch.parse(touch))
                        .withInsert(EventWriter.InsertMode.parse(insert))
                        .withLossyOneIn(lossyOneIn)
                        .withPoolSize(poolSize)
                        .withMigrate(migrate || target.owned())
                        .withProvisioning(new Provisioning(tenant, apiKey, 1000));
            } catch (IllegalArgumentException e) {
                throw new UsageException(e.getMessage());
            }
            try (RunningSut sut = Sut.start(config)) {
                System.err.printf("sut: listening on %s (db %s as %s; touch %s, insert %s%s, pool %d)%n", sut.baseUri(),
                        config.pg(), config.appUser(), touch, insert,
                        lossyOneIn > 0 ? ", LOSSY one in " + lossyOneIn : "", poolSize);
                // the built-in demo key is public; a key the user chose is a credential and never printed
                System.err.println("sut: POST " + sut.baseUri() + "/v1/usage-events with Authorization: Bearer "
                        + (Provisioning.DEMO_API_KEY.equals(apiKey) ? apiKey : "<the --api-key given>"));
                serve(sut, stopAfter, stop);
            }
        } finally {
            closed.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException alreadyShuttingDown) {
                // the JVM is exiting: the hook is running and has just been released
            }
        }
        return ExitCodes.OK;
    }

    private static void serve(RunningSut sut, Duration stopAfter, CountDownLatch stop) throws InterruptedException {
        var ticker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "sut-console");
            t.setDaemon(true);
            return t;
        });
        AtomicReference<SutStats.Snapshot> previous = new AtomicReference<>(sut.stats());
        ticker.scheduleAtFixedRate(() -> {
            SutStats.Snapshot now = sut.stats();
            SutStats.Snapshot d = now.minus(previous.getAndSet(now));
            System.out.printf("%s  %,7d req/s  %,9d events/s written  %,5d errors/s   total %,d req, %,d events, "
                            + "%,d rejected, %,d failed%n", LocalTime.now().format(CLOCK), d.requests(),
                    d.eventsWritten(), d.errors(), now.requests(), now.eventsWritten(), now.rejected(), now.failed());
        }, 1, 1, TimeUnit.SECONDS);
        try {
            if (stopAfter == null) {
                stop.await();
            } else {
                stop.await(stopAfter.toMillis(), TimeUnit.MILLISECONDS);
            }
        } finally {
            ticker.shutdownNow();
        }
    }
}
