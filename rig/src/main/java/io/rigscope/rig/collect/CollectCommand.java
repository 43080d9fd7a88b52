package io.rigscope.rig.collect;

import io.rigscope.collectors.CollectorContext;
import io.rigscope.collectors.CollectorSet;
import io.rigscope.collectors.TelemetrySources;
import io.rigscope.collectors.aws.AwsSettings;
import io.rigscope.localenv.postgres.PrivatePostgres;
import io.rigscope.model.wire.WireRecord;
import io.rigscope.pg.PgUrl;
import io.rigscope.rig.options.Durations;
import io.rigscope.rig.options.ExitCodes;
import io.rigscope.rig.cli.ExportOptions;
import io.rigscope.rig.options.KafkaOptions;
import io.rigscope.rig.options.PgTarget;
import io.rigscope.rig.options.UsageException;
import io.rigscope.rig.export.ExportTargets;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import reactor.core.publisher.Flux;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;
import software.amazon.awssdk.regions.Region;

/** {@code rigscope collect NAME}: runs one collector (or every local one) and publishes what it collects. */
@Command(name = "collect", mixinStandardHelpOptions = true,
        description = {"Run a collector and publish its records to its topic (and --out FILE.jsonl).",
            "NAME: vmstat | os | waits | db | pglog | canary | process | em | pi | rdslog | cloudwatch | all | k6 "
            + "('all' runs every local collector). Without --pg, collectors that need PostgreSQL use a "
            + "private cluster started for the run (its log file and data directory too).",
            "process watches a service's process on this host (--pid N): CPU, RSS, threads, run-queue wait, stops, "
            + "a JVM's GC and safepoint time (rig.process; docs/collectors.md).",
            "k6 follows a running k6 (--follow FILE or --topic T) and publishes its samples, drops, thresholds "
            + "and markers as 'import k6' would; its seconds close by time (--lateness). See docs/k6.md.",
            "Prints one line per second: records per collector and the gist of the latest one."})
public final class CollectCommand implements Callable<Integer> {

    private static final List<String> NAMES = List.of("vmstat", "os", "waits", "db", "pglog", "canary", "process", "em", "pi",
            "rdslog", "cloudwatch", "all", "k6");

    @Mixin
    KafkaOptions kafka = new KafkaOptions();

    @Parameters(index = "0", paramLabel = "NAME", description = "The collector: ${COMPLETION-CANDIDATES}",
            completionCandidates = Names.class)
    String name;

    @Option(names = "--series", required = true, paramLabel = "ID", description = "Series id (the records' key).")
    String series;

    @Option(names = "--duration", paramLabel = "DURATION", description = "Stop after this long, e.g. 10s, 5m (default: until Ctrl-C).")
    Duration duration;

    @Option(names = "--out", paramLabel = "FILE.jsonl", description = "Also write every record to this wire file.")
    Path out;

    @Option(names = "--no-kafka", description = "Write only the --out file; start no broker.")
    boolean noKafka;

    @Option(names = "--pg", paramLabel = "URL", description = "The target database: " + PgTarget.URL_FORM + ".")
    String pgUrl;

    @Option(names = "--pglog", paramLabel = "FILE", description = "The Postgres stderr log file to tail.")
    Path pgLog;

    @Option(names = "--log-prefix", paramLabel = "PREFIX", description = "The server's log_line_prefix (default '%%m [%%p] '; RDS: '%%t:%%r:%%u@%%d:[%%p]:').")
    String logPrefix;

    @Option(names = "--from-start", description = "Read the log file from its start (default: only new lines).")
    boolean fromStart;

    @Option(names = "--pgdata", paramLabel = "DIR", description = "The Postgres data directory (os: its device; canary: its filesystem).")
    Path pgData;

    @Option(names = "--tables", split = ",", paramLabel = "T1,T2", description = "Tables the DB sampler reports.")
    List<String> tables = new ArrayList<>();

    @Option(names = "--interval", paramLabel = "DURATION", description = "Sampling interval of vmstat, os, waits, db (default 1s).")
    Duration interval;

    @Option(names = "--pid", paramLabel = "N", description = "process: the service's process id, on this host.")
    Long pid;

    @Option(names = "--aws-endpoint", paramLabel = "URL", description = "Send AWS calls here instead of AWS's endpoints.")
    URI awsEndpoint;

    @Option(names = "--region", paramLabel = "REGION", description = "AWS region (default: the SDK's region chain).")
    String region;

    @Option(names = "--db-instance", paramLabel = "ID", description = "RDS DB instance identifier (rdslog, cloudwatch).")
    String dbInstance;

    @Option(names = "--dbi-resource-id", paramLabel = "ID", description = "RDS DbiResourceId, db-... (em, pi).")
    String dbiResourceId;

    @Option(names = "--since", paramLabel = "DURATION", description = "RDS sources: read from this long ago, e.g. 10m (default: now).")
    Duration since;

    @Mixin
    K6FollowOptions k6 = new K6FollowOptions();

    @Mixin
    ExportOptions export = new ExportOptions();

    @Override
    public Integer call() throws Exception {
        if (!NAMES.contains(name)) {
            throw new UsageException("unknown collector '" + name + "'; one of: " + String.join(", ", NAMES));
        }
        if (series.isBlank()) {
            throw new UsageException("--series is blank");
        }
        if (noKafka && out == null) {
            throw new UsageException("--no-kafka needs --out FILE.jsonl: there would be nowhere to write");
        }
        Duration stopAfter = Durations.positive("--duration", duration);
        ExportTargets pushTo = export.targets(null);
        if (name.equals("k6")) {
            return new CollectK6(k6, kafka, series, stopAfter, out, noKafka, pgUrl, pushTo).call();
        }
        if (pushTo.any()) {
            throw new UsageException("--prometheus-rw and --otlp are for `collect k6` (the decisions of a series); the telemetry of "
                    + "collect " + name + " is not pushed");
        }
        Duration every = interval;
        if (every != null && every.isZero()) {
            throw new UsageException("--interval must be > 0");
        }
        PgUrl target = pgUrl == null ? null : PgTarget.parse(pgUrl);
        CollectorContext ctx = CollectorContext.of(series);
        if (name.equals("process")) {
            if (pid == null) {
                throw new UsageException("collect process needs --pid N (the service's process on this host)");
            }
            if (ProcessHandle.of(pid).isEmpty()) {
                throw new UsageException("--pid " + pid + ": no such process on this host");
            }
            var collector = new io.rigscope.collectors.process.ProcessCollector(
                    new io.rigscope.collectors.process.ProcessCollector.Config(pid, every, null, null), ctx);
            return run(new CollectorSet(java.util.Map.of("process", collector.records())), stopAfter);
        }
        List<String> wanted = name.equals("all") ? TelemetrySources.LOCAL : List.of(name);
        boolean rds = TelemetrySources.RDS.contains(name);
        boolean needsPg = !rds && wanted.stream().anyMatch(n -> List.of("waits", "db", "pglog").contains(n));

        PrivatePostgres privatePg = null;
        try {
            if (needsPg && pgUrl == null && (pgLog == null || !wanted.equals(List.of("pglog")))) {
                privatePg = PrivatePostgres.startTemporary(PrivatePostgres.Options.defaults()
                        .with("autovacuum_naptime", "1"));
                System.err.printf("postgres: started a private PostgreSQL %d cluster at %s (log %s)%n",
                        privatePg.majorVersion(), privatePg.libpqUrl("postgres", "postgres"), privatePg.logFile());
            }
            CollectorSet set = rds ? rdsSet(ctx) : localSet(ctx, target, privatePg).only(wanted);
            return run(set, stopAfter);
        } finally {
            if (privatePg != null) {
                privatePg.close();
            }
        }
    }

    private CollectorSet localSet(CollectorContext ctx, PgUrl target, PrivatePostgres pg) {
        PgUrl url = target != null ? target : pg == null ? null : PgUrl.parse("private", pg.libpqUrl("postgres", "postgres"));
        Path log = pgLog != null ? pgLog : pg == null ? null : pg.logFile();
        Path data = pgData != null ? pgData : pg == null ? null : pg.dataDir();
        if (data != null && !Files.isDirectory(data)) {
            throw new UsageException("--pgdata " + data + " is not a directory");
        }
        if (name.equals("pglog") && log == null) {
            throw new UsageException("collect pglog needs --pglog FILE (or --pg unset to use a private cluster)");
        }
        if (List.of("waits", "db").contains(name) && url == null) {
            throw new UsageException("collect " + name + " needs --pg URL");
        }
        Duration every = interval;
        // a cluster started for this run logged only this run: its log is read from its first line
        boolean logFromStart = fromStart || (pgLog == null && pg != null);
        return TelemetrySources.local(new TelemetrySources.Local(url, log, logPrefix, logFromStart, data, tables, every), ctx);
    }

    private CollectorSet rdsSet(CollectorContext ctx) {
        if (List.of("em", "pi").contains(name) && dbiResourceId == null) {
            throw new UsageException("collect " + name + " needs --dbi-resource-id db-...");
        }
        if (List.of("rdslog", "cloudwatch").contains(name) && dbInstance == null) {
            throw new UsageException("collect " + name + " needs --db-instance ID");
        }
        Instant from = since == null ? null : Instant.now().minus(since);
        AwsSettings aws;
        try {
            aws = new AwsSettings(region == null ? null : Region.of(region), awsEndpoint, null);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        return TelemetrySources.rds(new TelemetrySources.Rds(dbInstance, dbiResourceId, from), aws, ctx).only(List.of(name));
    }

    private int run(CollectorSet set, Duration stopAfter) throws InterruptedException {
        Scheduler publishThread = Schedulers.newSingle("rigscope-collect-publish");
        LiveLine live = new LiveLine();
        try (CollectOutput output = CollectOutput.open(kafka, noKafka, out, "rigscope-collect",
                "collect-" + series)) {
            Consumer<WireRecord> sink = output::write;
            System.err.println("collect: " + String.join(", ", set.names()) + " for series " + series
                    + (stopAfter == null ? " (Ctrl-C to stop)" : " for " + stopAfter.toSeconds() + " s"));
            List<Flux<WireRecord>> tagged = new ArrayList<>();
            live.expect(set.names());
            for (String n : set.names()) {
                // every collector's stream is endless (its failures are gap markers and retries): one that ends or
                // fails anyway has died, and collect stops naming it rather than publish the others as if whole
                tagged.add(set.stream(n).doOnNext(r -> live.record(n, r))
                        .onErrorMap(e -> !(e instanceof CollectorDied), e -> new CollectorDied(n, e.toString(), e))
                        .concatWith(Flux.defer(() -> Flux.error(new CollectorDied(n, "its stream ended", null)))));
            }
            // a collector that samples on a clock and stalls (a hung child process or query) neither ends nor fails:
            // it only stops emitting, records and gap markers alike; past its limit it has died too
            Duration every = interval == null ? Duration.ofSeconds(1) : interval;
            Stalls stalls = new Stalls(set.names(), every);
            tagged.add(Flux.interval(Duration.ofSeconds(1), Schedulers.parallel()).concatMap(t -> {
                CollectorDied stalled = stalls.check(System.nanoTime());
                return stalled == null ? Flux.<WireRecord>empty() : Flux.<WireRecord>error(stalled);
            }));
            for (int i = 0; i < set.names().size(); i++) {
                String n = set.names().get(i);
                tagged.set(i, tagged.get(i).doOnNext(r -> stalls.heard(n, System.nanoTime())));
            }
            Flux<WireRecord> all = Flux.merge(tagged).publishOn(publishThread).doOnNext(sink);
            if (stopAfter != null) {
                all = all.take(stopAfter);
            }
            long startNs = System.nanoTime();
            var ticker = Flux.interval(Duration.ofSeconds(1), Schedulers.parallel())
                    .subscribe(t -> System.out.println(live.render((System.nanoTime() - startNs) / 1_000_000_000L)));
            var done = new java.util.concurrent.CountDownLatch(1);
            var died = new java.util.concurrent.atomic.AtomicReference<CollectorDied>();
            var running = all.doFinally(s -> done.countDown()).subscribe(r -> { }, e -> {
                if (e instanceof CollectorDied d) {
                    died.set(d);
                    System.err.println("collect: collector " + d.collector + " died: " + d.getMessage());
                } else {
                    System.err.println("collect: stopped: " + e.getMessage());
                }
            });
            Thread hook = new Thread(() -> {
                running.dispose();
                try {
                    done.await(5, java.util.concurrent.TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            Runtime.getRuntime().addShutdownHook(hook);
            done.await();
            ticker.dispose();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // Ctrl-C: the hook is running
            }
            output.flush();
            System.out.println("collect: records per topic " + live.perTopic() + "; gaps " + live.gaps()
                    + "; unparsed log lines " + live.rawLogLines() + output.summary());
            if (output.notPublishedLine() != null) {
                System.err.println(output.notPublishedLine());
            }
            if (died.get() != null) {
                System.err.println("collect: exiting " + ExitCodes.ERROR + ": collector " + died.get().collector
                        + " died (" + died.get().getMessage() + "); its stream is silent from here");
                return ExitCodes.ERROR;
            }
            return output.failed() ? ExitCodes.ERROR : ExitCodes.OK;
        } finally {
            publishThread.dispose();
        }
    }

    /**
     * The collectors that emit on a clock ({@link #CLOCKED}: vmstat, os, waits, db, canary): each emits a record or,
     * failing, a gap marker at least every interval, and a retry waits at most {@code Backoff.defaults()}' 10 s. One
     * that emitted and then emits nothing for {@link #STALL_BASE} plus 5 intervals has stalled: it died. Event-driven
     * collectors (pglog, rdslog) and polled AWS ones are quiet by nature and not watched. Thread-safe.
     */
    static final class Stalls {
        static final List<String> CLOCKED = List.of("vmstat", "os", "waits", "db", "canary");
        static final Duration STALL_BASE = Duration.ofSeconds(30);
        private final java.util.concurrent.ConcurrentHashMap<String, Long> lastNanos = new java.util.concurrent.ConcurrentHashMap<>();
        private final java.util.Set<String> watched;
        private final long limitNanos;

        Stalls(List<String> names, Duration interval) {
            this.watched = java.util.Set.copyOf(names.stream().filter(CLOCKED::contains).toList());
            this.limitNanos = STALL_BASE.plus(interval.multipliedBy(5)).toNanos();
        }

        void heard(String collector, long nowNanos) {
            if (watched.contains(collector)) {
                lastNanos.put(collector, nowNanos);
            }
        }

        /** The first watched collector silent past the limit, or null. */
        CollectorDied check(long nowNanos) {
            for (var e : new java.util.TreeMap<>(lastNanos).entrySet()) {
                long silentNanos = nowNanos - e.getValue();
                if (silentNanos > limitNanos) {
                    Instant since = Instant.now().minusNanos(silentNanos);
                    return new CollectorDied(e.getKey(), String.format(java.util.Locale.ROOT,
                            "stalled: nothing from it (no record, no gap marker) since %s, %d s, over its limit of %d s",
                            java.time.format.DateTimeFormatter.ISO_LOCAL_TIME.format(
                                    since.atZone(java.time.ZoneOffset.UTC).toLocalTime().withNano(0)),
                            silentNanos / 1_000_000_000L, limitNanos / 1_000_000_000L), null);
                }
            }
            return null;
        }
    }

    /** A collector whose stream ended or failed: it will publish nothing more. */
    static final class CollectorDied extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final String collector;

        CollectorDied(String collector, String why, Throwable cause) {
            super(why, cause);
            this.collector = collector;
        }
    }

    /** Collector names for --help. */
    static final class Names extends ArrayList<String> {
        private static final long serialVersionUID = 1L;

        Names() {
            super(NAMES);
        }
    }
}
