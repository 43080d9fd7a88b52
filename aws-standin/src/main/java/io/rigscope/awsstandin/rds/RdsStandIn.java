package io.rigscope.awsstandin.rds;

import io.rigscope.awsstandin.AwsAnswer;
import io.rigscope.awsstandin.AwsCall;
import io.rigscope.awsstandin.AwsStandIn;
import io.rigscope.model.wire.OsMetrics;
import io.rigscope.model.wire.Waits;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * An RDS for PostgreSQL instance on an {@link AwsStandIn}, made of readings its owner {@link #add adds}: the calls
 * the RDS collectors make, in AWS's documented wire shapes: CloudWatch Logs GetLogEvents ({@link EmStream}),
 * Performance Insights GetResourceMetrics ({@link PiSamples}), RDS DescribeDBLogFiles and DownloadDBLogFilePortion
 * ({@link RdsLogFile}), CloudWatch GetMetricData ({@link CloudWatchPeriods}). With an {@link RdsInstance} it also
 * answers RDS DescribeDBInstances and DescribeDBParameters and the Price List's GetProducts ({@link RdsDescribe}),
 * and with a load-host zone the EC2 instance metadata service's IMDSv2 token and {@code placement/availability-zone}
 * paths (what {@code run --config} with {@code rds:} reads). The real collectors reach it through the AWS SDK with
 * an endpoint override, so they poll, page and parse exactly as they do against AWS.
 *
 * <p>The endpoint's server thread answers; a daemon timer releases the log ({@link #LOG_RELEASE_EVERY}); readings
 * may be added from any thread. Close to stop both.
 */
public final class RdsStandIn implements AutoCloseable {

    /** How often the log's new content becomes downloadable. */
    public static final Duration LOG_RELEASE_EVERY = RdsLogFile.RELEASE_EVERY;
    /** The device name RDS gives the data volume in Enhanced Monitoring's {@code diskIO}. */
    public static final String DATA_DEVICE = EmStream.DATA_DEVICE;
    private static final String TOKEN = "standin-imds-token";

    private final AwsStandIn aws = AwsStandIn.start();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "rig-cal-rds-log");
        t.setDaemon(true);
        return t;
    });
    private final EmStream em;
    private final PiSamples pi;
    private final CloudWatchPeriods cloudWatch;
    private volatile Runnable onClose = () -> { };

    /**
     * Starts the endpoint on a free loopback port; the log's first release is one step from now.
     *
     * @param instanceId the instance's identifier
     * @param dbiResourceId its DbiResourceId (Enhanced Monitoring's stream, Performance Insights' identifier)
     * @param logFile the cluster's log, written with RDS's {@code log_line_prefix} in UTC (the RDS log)
     * @param minuteInProgress true to serve CloudWatch's minute in progress too (a test's series is shorter than a
     *                         minute); false serves only ended minutes, as CloudWatch does
     * @param instance what DescribeDBInstances, DescribeDBParameters and GetProducts answer, or null (they refuse)
     * @param loadHostZone the zone the instance metadata service says this host is in, or null (none answers)
     */
    public static RdsStandIn start(String instanceId, String dbiResourceId, Path logFile, Clock clock,
                                   boolean minuteInProgress, RdsInstance instance, String loadHostZone) {
        return new RdsStandIn(instanceId, dbiResourceId, logFile, clock, minuteInProgress, instance, loadHostZone);
    }

    private RdsStandIn(String instanceId, String dbi, Path logFile, Clock clock, boolean minuteInProgress,
                       RdsInstance instance, String zone) {
        Objects.requireNonNull(clock, "clock");
        Instant since = clock.instant();
        this.em = new EmStream(instanceId, dbi, since);
        this.pi = new PiSamples(dbi);
        this.cloudWatch = new CloudWatchPeriods(instanceId, minuteInProgress);
        RdsLogFile log = new RdsLogFile(logFile, since);
        RdsDescribe describe = instance == null ? null : new RdsDescribe(instance);
        aws.route("GetLogEvents", c -> json(em.getLogEvents(c.json(), clock.millis()), "ResourceNotFoundException", c))
                .route("GetResourceMetrics", c -> json(pi.getResourceMetrics(c.json()), "InvalidArgumentException", c))
                .route("GetProducts", c -> json(describe == null ? null : describe.getProducts(c.json()),
                        "InvalidArgumentException", c))
                .route("DescribeDBLogFiles", c -> rds(c, log::describe))
                .route("DownloadDBLogFilePortion", c -> rds(c, log::download))
                .route("GetMetricData", c -> AwsAnswer.query("GetMetricData", CloudWatchPeriods.NS,
                        cloudWatch.getMetricData(c.form(), clock.millis())))
                .route("DescribeDBInstances", c -> rds(c, describe == null ? f -> null : describe::describeDbInstances))
                .route("DescribeDBParameters", c -> rds(c, describe == null ? f -> null : describe::describeDbParameters))
                .otherwise(c -> c.path().startsWith("/latest/") ? metadata(c, zone)
                        : AwsAnswer.queryError(400, "InvalidAction", "the stand-in has no such resource for " + c.action()));
        long stepMs = RdsLogFile.RELEASE_EVERY.toMillis();
        timer.scheduleAtFixedRate(() -> log.release(clock.millis()), stepMs, stepMs, TimeUnit.MILLISECONDS);
    }

    /** One device reading of the cluster's data directory: Enhanced Monitoring and CloudWatch. */
    public void add(OsMetrics reading) {
        em.add(reading);
        cloudWatch.add(reading);
    }

    /** One pg_stat_activity sample of the cluster: Performance Insights. */
    public void add(Waits sample) {
        pi.add(sample);
    }

    /** Runs {@code stop} (its feeders' end) first when this is closed; returns this. */
    public RdsStandIn closing(Runnable stop) {
        onClose = stop;
        return this;
    }

    /** Where the SDK clients (and the instance metadata client) are pointed. */
    public URI endpoint() {
        return aws.endpoint();
    }

    /** Calls answered so far, by action ({@code GetLogEvents=12, ...}; {@code imds /latest/...}). */
    public Map<String, Long> calls() {
        return aws.counts(c -> c.path().startsWith("/latest/") ? "imds " + c.path() : c.action());
    }

    private static AwsAnswer json(String answer, String refusal, AwsCall c) {
        return answer != null ? AwsAnswer.json(answer)
                : AwsAnswer.jsonError(400, refusal, "the stand-in has no such resource for " + c.action());
    }

    private static AwsAnswer rds(AwsCall c, Function<Map<String, String>, String> result) {
        String answer = result.apply(c.form());
        if (answer != null) {
            return AwsAnswer.query(c.action(), RdsDescribe.NS, answer);
        }
        return switch (c.action()) {
            case "DescribeDBInstances" -> AwsAnswer.queryError(404, "DBInstanceNotFound",
                    "DBInstance " + c.form().get("DBInstanceIdentifier") + " not found.");
            case "DescribeDBParameters" -> AwsAnswer.queryError(404, "DBParameterGroupNotFound",
                    "DBParameterGroup " + c.form().get("DBParameterGroupName") + " not found.");
            default -> AwsAnswer.queryError(404, "DBLogFileNotFoundFault",
                    "the stand-in has no such resource for " + c.action());
        };
    }

    /** IMDSv2: {@code PUT /latest/api/token}, then {@code GET .../placement/availability-zone} with that token. */
    private static AwsAnswer metadata(AwsCall c, String zone) {
        if (zone == null) {
            return AwsAnswer.of(404, "text/plain", "not found");
        } else if (c.path().equals("/latest/api/token") && c.method().equals("PUT")) {
            return AwsAnswer.of(200, "text/plain", TOKEN);
        } else if (c.path().equals("/latest/meta-data/placement/availability-zone")
                && TOKEN.equals(c.header("X-aws-ec2-metadata-token"))) {
            return AwsAnswer.of(200, "text/plain", zone);
        }
        return AwsAnswer.of(401, "text/plain", "unauthorized");
    }

    @Override
    public void close() {
        onClose.run();
        timer.shutdownNow();
        aws.close();
    }
}
