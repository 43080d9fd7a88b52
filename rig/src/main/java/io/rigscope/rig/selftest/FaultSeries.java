package io.rigscope.rig.selftest;

import io.rigscope.wire.kafka.KafkaClients;
import io.rigscope.analyzer.report.ReportFiles;
import io.rigscope.analyzer.decision.SeriesReport;
import io.rigscope.collectors.sources.TelemetrySources;
import io.rigscope.localenv.kafka.EmbeddedKafka;
import io.rigscope.localenv.net.LoopbackPorts;
import io.rigscope.localenv.postgres.PrivatePostgres;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.pg.PgUrl;
import io.rigscope.rig.calibrate.CaseRun;
import io.rigscope.rig.bringup.BringUpChecks;
import io.rigscope.rig.series.SeriesPlan;
import io.rigscope.rig.series.SeriesRunner;
import io.rigscope.rig.series.SeriesSession;
import io.rigscope.rig.sutproc.SutProcess;
import io.rigscope.sut.SutContract;
import io.rigscope.sut.schema.Migrations;
import io.rigscope.sut.schema.Provisioning;
import io.rigscope.wire.WirePublisher;
import io.rigscope.wire.kafka.TopicAdmin;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * One real series with three faults, one per sustained repeat, from which {@link BrokerRestart},
 * {@link AnalyzerRestart} and {@link PgRestart} read their figures: its own embedded broker (so it can be stopped),
 * a private PostgreSQL cluster, the reference SUT in its own JVM, every local collector and the live analyzer, as
 * {@code rigscope run} has them; three sustained repeats of {@link #REPEAT} at {@link #RATE_PER_SEC} req/s.
 *
 * <ol>
 *   <li>repeat 1: {@link #FAULT_AFTER} into it the broker is stopped, and started again {@link #BROKER_DOWN}
 *       later on the same data directory and port;</li>
 *   <li>repeat 2: an analyzer ({@code rigscope analyze --series S}, a child JVM) follows the series from its
 *       start; {@link #FAULT_AFTER} into the repeat it is killed ({@code SIGKILL}) and a new one started that
 *       follows the series to its end and writes its report;</li>
 *   <li>repeat 3: {@link #FAULT_AFTER} into it PostgreSQL is stopped (fast) and started again
 *       {@link #PG_DOWN} later.</li>
 * </ol>
 *
 * <p>Every record the series published also goes to a wire file, written when the generator and collectors hand
 * it over (before Kafka): what an unbroken broker would have carried. Blocking; not thread-safe.
 */
final class FaultSeries {

    /** Requests per second of each repeat. */
    public static final double RATE_PER_SEC = 100;
    /** Each repeat's length. */
    public static final Duration REPEAT = Duration.ofSeconds(12);
    /** When each fault starts, from its repeat's start. */
    public static final Duration FAULT_AFTER = Duration.ofSeconds(4);
    /** How long the broker stays down. */
    public static final Duration BROKER_DOWN = Duration.ofSeconds(3);
    /** How long PostgreSQL stays down. */
    public static final Duration PG_DOWN = Duration.ofSeconds(2);

    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")
            .withZone(ZoneOffset.UTC);

    /**
     * What the run left behind.
     *
     * @param series the series id
     * @param bootstrap the broker (running until {@link Outcome#close()})
     * @param wireFile every record handed to the publisher, in order
     * @param liveReport the live analyzer's report (it followed the series through every fault)
     * @param brokerDownUs when the broker was stopped, epoch µs
     * @param brokerUpUs when it accepted connections again
     * @param spooled records the generator's outbox spooled in repeat 1
     * @param analyzerKilledUs when the first child analyzer was killed
     * @param analyzerKillExit its exit code (137 after SIGKILL)
     * @param restartedReport the restarted child analyzer's report file, as written (null when it wrote none)
     * @param restartedExit the restarted child's exit code
     * @param pgDownUs when PostgreSQL was asked to stop
     * @param pgUpUs when it accepted connections again
     * @param kafka the broker, closed with the outcome
     */
    public record Outcome(String series, String bootstrap, Path wireFile, SeriesReport liveReport, long brokerDownUs,
                          long brokerUpUs, long spooled, long analyzerKilledUs, int analyzerKillExit,
                          byte[] restartedReport, int restartedExit, long pgDownUs, long pgUpUs, EmbeddedKafka kafka)
            implements AutoCloseable {
        /** The live report as the report file holds it. */
        public byte[] liveReportJson() {
            return ReportFiles.json(liveReport);
        }

        @Override
        public void close() {
            kafka.close();
        }
    }

    private final Path workDir;
    private final PrintStream progress;
    private final WireCodec codec = new WireCodec();

    /**
     * @param workDir where the broker's data, the wire file and the child analyzers' reports and logs go
     * @param progress where one line per step goes
     */
    public FaultSeries(Path workDir, PrintStream progress) {
        this.workDir = Objects.requireNonNull(workDir, "workDir");
        this.progress = Objects.requireNonNull(progress, "progress");
    }

    /** Runs the series; the caller closes the outcome (its broker). */
    public Outcome run() {
        String series = "selftest-" + STAMP.format(Clock.systemUTC().instant());
        Path kafkaDir = workDir.resolve("kafka");
        int port;
        try {
            port = LoopbackPorts.free();
        } catch (IOException e) {
            throw new UncheckedIOException("no free loopback port for the broker", e);
        }
        Faults faults = new Faults(kafkaDir, port, series);
        long t0 = System.nanoTime();
        faults.kafka = EmbeddedKafka.start(kafkaDir, port);
        boolean done = false;
        try {
            String bootstrap = faults.kafka.bootstrap();
            try (TopicAdmin admin = new TopicAdmin(bootstrap)) {
                admin.ensureTopics();
            }
            step("broker at %s (%s), own data directory", bootstrap, kafkaDir);
            Path wire = workDir.resolve(series + ".jsonl");
            SeriesReport report;
            long spooled;
            try (PrivatePostgres pg = PrivatePostgres.startTemporary(CaseRun.BASE_CLUSTER)) {
                faults.pg = pg;
                step("private PostgreSQL %d at 127.0.0.1:%d", pg.majorVersion(), pg.port());
                PgUrl owner = PgUrl.parse("private", pg.libpqUrl("postgres", "postgres"));
                try (SutProcess sut = SutProcess.start(new SutProcess.Spec(owner, Migrations.APP_ROLE, null,
                        "per-minute", "multi-row", Provisioning.DEMO_TENANT, Provisioning.DEMO_API_KEY,
                        Duration.ofSeconds(60), SutProcess.newLogFile()));
                     WirePublisher publisher = new WirePublisher(bootstrap, codec,
                             WirePublisher.Options.defaults().withOutFile(wire).withClientId("rigscope-selftest"))) {
                    step("SUT pid %d at %s (log %s)", sut.pid(), sut.baseUri(), sut.logFile());
                    SeriesPlan plan = plan(series, sut.baseUri());
                    if (!SeriesSession.bringUp(new BringUpChecks.Spec(owner, Migrations.APP_ROLE, null,
                            sut.baseUri(), Provisioning.DEMO_API_KEY, plan.load().batch(),
                            BringUpChecks.DEFAULT_COUNT_SQL), new PrintStream(PrintStream.nullOutputStream()))) {
                        throw new IllegalStateException("the SUT's bring-up checks failed (log " + sut.logFile() + ")");
                    }
                    faults.bootstrap = bootstrap;
                    step("series %s: 3 repeats x %d s at %.0f req/s; faults: broker (rep 1), analyzer (rep 2), "
                            + "PostgreSQL (rep 3)", series, REPEAT.toSeconds(), RATE_PER_SEC);
                    SeriesSession.Options options = new SeriesSession.Options(owner, Provisioning.DEMO_TENANT,
                            new TelemetrySources.Local(owner, pg.logFile(), null, false, pg.dataDir(),
                                    SutContract.WATCHED_TABLES, null),
                            null, null, null, Duration.ofSeconds(120));
                    PrintStream quiet = new PrintStream(PrintStream.nullOutputStream());
                    SeriesSession.Result result = new SeriesSession(KafkaClients.of(bootstrap), publisher, codec, quiet)
                            .run(plan, options, faults);
                    report = result.report();
                    spooled = result.outcome().repeats().stream().filter(r -> r.rep() == 1)
                            .mapToLong(r -> r.run().recordsSpooled()).sum();
                    faults.awaitFaults();
                    publisher.flush();
                }
                step("series done: live analyzer %s, %s", report.verdict(), report.headline());
            }
            Child restarted = faults.restartedAnalyzer;
            int restartedExit = restarted == null ? -1 : restarted.await(Duration.ofMinutes(2));
            byte[] restartedReport = restarted == null ? null : restarted.report();
            step("restarted analyzer exited %d", restartedExit);
            done = true;
            progress.printf("  (fault series took %.0f s)%n", (System.nanoTime() - t0) / 1e9);
            return new Outcome(series, bootstrap, wire, report, faults.brokerDownUs, faults.brokerUpUs, spooled,
                    faults.killedUs, faults.killExit, restartedReport, restartedExit, faults.pgDownUs, faults.pgUpUs,
                    faults.kafka);
        } finally {
            faults.shutdown();
            if (!done && faults.kafka != null) {
                faults.kafka.close();
            }
        }
    }

    private void step(String format, Object... args) {
        progress.printf("  " + format + "%n", args);
    }

    private static SeriesPlan plan(String series, java.net.URI target) {
        Map<String, Object> analyzer = new LinkedHashMap<>();
        analyzer.put("thresholds", Map.of("http_req_duration", List.of("p(99)<500")));
        SeriesPlan.Load load = new SeriesPlan.Load(10, "api_calls", "cust-%d", 1000, 1000, Duration.ofSeconds(5), 0);
        return new SeriesPlan(series, target, Provisioning.DEMO_API_KEY, load, null,
                new SeriesPlan.Sustained(RATE_PER_SEC, 3, REPEAT, Duration.ofSeconds(1)), null, null, analyzer,
                SutContract.RECONCILIATION_SQL);
    }

    private static long nowUs() {
        return Clock.systemUTC().millis() * 1000L;
    }

    /** The faults, started from the repeats' starts on their own thread. */
    private final class Faults implements SeriesRunner.RepeatListener {
        private final ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "selftest-faults");
            t.setDaemon(true);
            return t;
        });
        private final Path kafkaDir;
        private final int port;
        private final String series;
        private final List<CompletableFuture<Void>> running = new ArrayList<>();
        volatile EmbeddedKafka kafka;
        volatile PrivatePostgres pg;
        volatile String bootstrap;
        volatile long brokerDownUs;
        volatile long brokerUpUs;
        volatile long killedUs;
        volatile int killExit = -1;
        volatile long pgDownUs;
        volatile long pgUpUs;
        volatile Child restartedAnalyzer;
        private Child firstAnalyzer;

        Faults(Path kafkaDir, int port, String series) {
            this.kafkaDir = kafkaDir;
            this.port = port;
            this.series = series;
        }

        @Override
        public void started(int rep, String phase, Duration duration) {
            if (rep == 2) {
                firstAnalyzer = Child.analyze(workDir, series, bootstrap, "analyzer-1");
                step("rep 2: analyzer child pid %d following the series", firstAnalyzer.pid());
            }
            running.add(CompletableFuture.runAsync(() -> {
                sleep(FAULT_AFTER);
                switch (rep) {
                    case 1 -> restartBroker();
                    case 2 -> restartAnalyzer();
                    case 3 -> restartPostgres();
                    default -> { }
                }
            }, thread));
        }

        @Override
        public void ended(int rep) {
            // the next repeat starts only after this one's fault is over (the broker is back, PostgreSQL is up)
            awaitFaults();
        }

        private void restartBroker() {
            brokerDownUs = nowUs();
            step("rep 1: stopping the broker");
            kafka.close();
            sleep(BROKER_DOWN);
            kafka = EmbeddedKafka.start(kafkaDir, port);
            brokerUpUs = nowUs();
            step("rep 1: broker back after %.1f s on the same data directory and port",
                    (brokerUpUs - brokerDownUs) / 1e6);
        }

        private void restartAnalyzer() {
            killedUs = nowUs();
            killExit = firstAnalyzer.kill();
            restartedAnalyzer = Child.analyze(workDir, series, bootstrap, "analyzer-2");
            step("rep 2: analyzer killed (SIGKILL, exit %d); restarted as pid %d", killExit, restartedAnalyzer.pid());
        }

        private void restartPostgres() {
            pgDownUs = nowUs();
            step("rep 3: stopping PostgreSQL (fast)");
            pg.stopServer();
            sleep(PG_DOWN);
            pg.startServer();
            pgUpUs = nowUs();
            step("rep 3: PostgreSQL back after %.1f s", (pgUpUs - pgDownUs) / 1e6);
        }

        /** Waits for the faults started so far; rethrows the first failure. */
        void awaitFaults() {
            for (CompletableFuture<Void> f : running) {
                f.join();
            }
        }

        void shutdown() {
            thread.shutdownNow();
            if (firstAnalyzer != null) {
                firstAnalyzer.kill();
            }
        }
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** {@code rigscope analyze} in a child JVM, its output in a log file. */
    static final class Child {
        private final Process process;
        private final Path report;

        private Child(Process process, Path report) {
            this.process = process;
            this.report = report;
        }

        static Child analyze(Path dir, String series, String bootstrap, String name) {
            Path report = dir.resolve(name + ".report.json");
            Path log = dir.resolve(name + ".log");
            List<String> command = List.of(javaBinary(), "-Xmx512m", "-cp", System.getProperty("java.class.path"),
                    "io.rigscope.rig.Main", "analyze", "--series", series, "--bootstrap", bootstrap, "--no-publish",
                    "--quiet", "--report-json", report.toString());
            try {
                Files.deleteIfExists(report);
                Process p = new ProcessBuilder(command).redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.to(log.toFile())).start();
                return new Child(p, report);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot start rigscope analyze as a child process", e);
            }
        }

        long pid() {
            return process.pid();
        }

        /** SIGKILL; returns the exit code. */
        int kill() {
            process.destroyForcibly();
            return await(Duration.ofSeconds(10));
        }

        int await(Duration timeout) {
            try {
                if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                    process.destroyForcibly();
                    process.waitFor(10, TimeUnit.SECONDS);
                    return -1;
                }
                return process.exitValue();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
                return -1;
            }
        }

        byte[] report() {
            try {
                return Files.exists(report) ? Files.readAllBytes(report) : null;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        static String javaBinary() {
            return ProcessHandle.current().info().command()
                    .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        }
    }
}
