package io.rigscope.rig.cli;

import io.rigscope.collectors.CollectorContext;
import io.rigscope.collectors.CollectorSet;
import io.rigscope.collectors.sources.TelemetrySources;
import io.rigscope.collectors.aws.AwsSettings;
import io.rigscope.localenv.postgres.PrivatePostgres;
import io.rigscope.pg.PgUrl;
import io.rigscope.rig.collect.CollectLoop;
import io.rigscope.rig.options.Durations;
import io.rigscope.rig.options.ExitCodes;
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
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
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
final class CollectCommand implements Callable<Integer> {

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
    CollectLoop.K6.FollowOptions k6 = new CollectLoop.K6.FollowOptions();

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
            return new CollectLoop.K6(k6, kafka, series, stopAfter, out, noKafka, pgUrl, pushTo).call();
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
            return CollectLoop.run(new CollectorSet(java.util.Map.of("process", collector.records())), stopAfter, interval,
                    kafka, noKafka, out, series);
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
            return CollectLoop.run(set, stopAfter, interval, kafka, noKafka, out, series);
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

    /** Collector names for --help. */
    static final class Names extends ArrayList<String> {
        private static final long serialVersionUID = 1L;

        Names() {
            super(NAMES);
        }
    }
}
