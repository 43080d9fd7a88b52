package io.rigscope.rig.calibrate;

import io.rigscope.awsstandin.rds.RdsStandIn;
import io.rigscope.collectors.CollectorContext;
import io.rigscope.collectors.aws.AwsSettings;
import io.rigscope.collectors.aws.CloudWatchCollector;
import io.rigscope.collectors.aws.EnhancedMonitoringCollector;
import io.rigscope.collectors.aws.PerformanceInsightsCollector;
import io.rigscope.collectors.aws.RdsLogCollector;
import io.rigscope.collectors.db.DbSampler;
import io.rigscope.collectors.os.OsMetricsCollector;
import io.rigscope.collectors.waits.WaitsCollector;
import io.rigscope.model.wire.Gap;
import io.rigscope.model.wire.Marker;
import io.rigscope.model.wire.OsMetrics;
import io.rigscope.model.wire.Waits;
import io.rigscope.model.wire.WireRecord;
import io.rigscope.pg.PgUrl;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Consumer;
import reactor.core.Disposable;
import reactor.core.Disposables;
import reactor.core.publisher.Flux;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;

/**
 * The telemetry of the {@code rds} profile: only the streams an RDS instance gives, made of this host's real
 * measurements of the private cluster and read by rigscope's real RDS collectors.
 *
 * <pre>
 *   /proc (local os collector) --+--> EM stream ---------> GetLogEvents ------------> EnhancedMonitoringCollector  rig.os          em@db-...
 *                                +--> CloudWatch periods -> GetMetricData -----------> CloudWatchCollector          rig.cloudwatch  cloudwatch@...
 *   pg_stat_activity (waits) -------> PI samples ---------> GetResourceMetrics ------> PerformanceInsightsCollector rig.waits       pi@db-...
 *   the cluster's log file ---------> RDS log file -------> DownloadDBLogFilePortion -> RdsLogCollector            rig.pglog       rdslog@...
 *   SQL (what RDS lets a client read) ----------------------------------------------> DbSampler                    rig.db          db@local
 * </pre>
 *
 * The middle column is one {@link RdsStandIn} on a loopback port, reached through the AWS SDK with an endpoint
 * override, so each collector polls, pages, lags and parses as it does against AWS. The local readings feed the
 * stand-in only; they are never published. Not run: vmstat and the disk canary (no shell on an instance) and the
 * local os view (its device is the stand-in's input). The generator's own health ({@code rig.health}) is the
 * generator's and is published as in every run.
 *
 * <p>{@link #start} returns at once; {@link #close} stops the collectors and the feeders, then the endpoint.
 */
final class RdsTelemetry implements AutoCloseable {

    /** The streams this profile publishes, by collector. */
    static final List<String> PUBLISHED = List.of("em", "pi", "rdslog", "cloudwatch", "db");

    /**
     * The RDS collectors' polling; null is each collector's own default (EM 5 s, PI 10 s with a 5-s lag, log 5 s,
     * CloudWatch 60 s). Calibration uses the defaults; a test may poll CloudWatch faster (its periods stay 60 s).
     */
    record Polls(Duration em, Duration pi, Duration piLag, Duration log, Duration cloudWatch) {
        static Polls defaults() {
            return new Polls(null, null, null, null, null);
        }
    }

    /**
     * What the instance is made of.
     *
     * @param pgUrl the private cluster (waits sampling, DB sampler)
     * @param dataDir its data directory (the device EM and CloudWatch report)
     * @param logFile its log file, written with RDS's {@code log_line_prefix} in UTC
     *                ({@link CalibrationProfile#cluster})
     * @param tables the tables the DB sampler reports
     */
    record Source(PgUrl pgUrl, Path dataDir, Path logFile, List<String> tables) {
        Source {
            Objects.requireNonNull(pgUrl, "pgUrl");
            Objects.requireNonNull(dataDir, "dataDir");
            Objects.requireNonNull(logFile, "logFile");
            tables = List.copyOf(tables);
        }
    }

    private final String instanceId;
    private final String dbiResourceId;
    private final RdsStandIn standIn;
    private final Disposable.Composite running = Disposables.composite();
    private final Scheduler publishThread;

    private RdsTelemetry(String instanceId, String dbiResourceId, RdsStandIn standIn, Scheduler publishThread) {
        this.instanceId = instanceId;
        this.dbiResourceId = dbiResourceId;
        this.standIn = standIn;
        this.publishThread = publishThread;
    }

    /**
     * Starts the feeders, the stand-in and the collectors, reading from now on.
     *
     * @param source the private cluster
     * @param ctx series and repeat for every published record (the collectors' src names the instance)
     * @param sink where each published record goes (called on one thread of its own)
     * @param console where a feeder's failure is said
     */
    static RdsTelemetry start(Source source, CollectorContext ctx, Polls polls, Consumer<WireRecord> sink,
                              PrintStream console) {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(ctx, "ctx");
        Objects.requireNonNull(polls, "polls");
        Objects.requireNonNull(sink, "sink");
        Clock clock = Clock.systemUTC();
        Instant since = clock.instant();
        String instanceId = instanceId(ctx.run());
        String dbi = dbiResourceId(ctx.run());
        RdsStandIn standIn = RdsStandIn.start(instanceId, dbi, source.logFile(), clock, false, null, null);
        RdsTelemetry t = new RdsTelemetry(instanceId, dbi, standIn, Schedulers.newSingle("rig-telemetry-rds", true));
        try {
            CollectorContext feeder = new CollectorContext(ctx.run(), () -> 0, "rds-standin", clock);
            t.running.add(new OsMetricsCollector(new OsMetricsCollector.Config(source.dataDir(), Duration.ofSeconds(1),
                    null), feeder).records().subscribe(r -> {
                        if (r instanceof OsMetrics os) {
                            standIn.add(os);
                        } else {
                            failed(console, "device view", r);
                        }
                    }));
            t.running.add(new WaitsCollector(new WaitsCollector.Config(source.pgUrl(), Duration.ofSeconds(1)), feeder)
                    .records().subscribe(r -> {
                        if (r instanceof Waits w) {
                            standIn.add(w);
                        } else {
                            failed(console, "session sampling", r);
                        }
                    }));
            AwsSettings aws = new AwsSettings(Region.US_EAST_1, standIn.endpoint(), StaticCredentialsProvider.create(
                    AwsBasicCredentials.create("AKIDRIGSCOPESTANDIN0", "placeholder-for-the-local-stand-in")));
            Flux<WireRecord> published = Flux.merge(
                    new EnhancedMonitoringCollector(new EnhancedMonitoringCollector.Config(dbi, since, polls.em()), aws,
                            ctx).records(),
                    new PerformanceInsightsCollector(new PerformanceInsightsCollector.Config(dbi, since, polls.pi(),
                            polls.piLag()), aws, ctx).records(),
                    new RdsLogCollector(new RdsLogCollector.Config(instanceId, null, since, polls.log()), aws, ctx)
                            .events(),
                    new CloudWatchCollector(new CloudWatchCollector.Config(instanceId, null, since, polls.cloudWatch()),
                            aws, ctx).records(),
                    new DbSampler(new DbSampler.Config(source.pgUrl(), source.tables(), Duration.ofSeconds(1)), ctx)
                            .records());
            t.running.add(published.publishOn(t.publishThread).subscribe(sink,
                    e -> console.println("rds telemetry stopped: " + e.getMessage())));
            return t;
        } catch (RuntimeException e) {
            t.close();
            throw e;
        }
    }

    private static void failed(PrintStream console, String what, WireRecord r) {
        if (r instanceof Marker m && m.body() instanceof Gap gap && gap.reason() != null) {
            console.println("rds stand-in: the " + what + " feeding it failed: " + gap.reason());
        }
    }

    /** The stand-in instance's identifier: {@code cal-} and the series' case name, as RDS allows (1-63 chars). */
    static String instanceId(String series) {
        String id = series.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9-]", "-").replaceAll("-+", "-");
        id = Character.isLetter(id.isEmpty() ? '0' : id.charAt(0)) ? id : "db-" + id;
        id = id.length() > 63 ? id.substring(0, 63) : id;
        return id.endsWith("-") ? id + "0" : id;
    }

    /** A DbiResourceId-shaped id ({@code db-} and 26 of A-Z, 2-7), derived from the series. */
    static String dbiResourceId(String series) {
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
        byte[] hash;
        try {
            hash = java.security.MessageDigest.getInstance("SHA-256").digest(series.getBytes(StandardCharsets.UTF_8));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        StringBuilder id = new StringBuilder("db-");
        for (int i = 0; i < 26; i++) {
            id.append(alphabet.charAt(hash[i] & 31));
        }
        return id.toString();
    }

    String instanceId() {
        return instanceId;
    }

    String dbiResourceId() {
        return dbiResourceId;
    }

    /** What runs, in one line, for the console. */
    String describe() {
        return "rds profile: em@" + dbiResourceId + " (1 s), pi@" + dbiResourceId + " (1 s), rdslog@" + instanceId
                + " (RDS prefix, released every " + RdsStandIn.LOG_RELEASE_EVERY.toSeconds() + " s), cloudwatch@"
                + instanceId + " (60 s) through the real RDS collectors against " + standIn.endpoint()
                + "; db@local; no canary, no vmstat, no local os view";
    }

    /** Calls the stand-in answered, by action. */
    java.util.Map<String, Long> calls() {
        return standIn.calls();
    }

    @Override
    public void close() {
        running.dispose();
        publishThread.dispose();
        standIn.close();
    }
}
