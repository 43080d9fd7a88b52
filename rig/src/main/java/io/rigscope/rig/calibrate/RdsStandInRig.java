package io.rigscope.rig.calibrate;

import io.rigscope.collectors.CollectorContext;
import io.rigscope.collectors.os.OsMetricsCollector;
import io.rigscope.collectors.waits.WaitsCollector;
import io.rigscope.model.wire.OsMetrics;
import io.rigscope.model.wire.Waits;
import io.rigscope.pg.PgUrl;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import reactor.core.Disposable;
import reactor.core.Disposables;

/**
 * An RDS instance stood in for by a private PostgreSQL cluster, for {@code run --config} with {@code rds:} pointed
 * at {@link #endpoint()} (tests, and the example in docs/rds.md): the {@link RdsStandIn} answering the calls the RDS
 * collectors make (fed, as in {@code calibrate --profile rds}, by this host's device readings and the cluster's
 * sessions and log), plus DescribeDBInstances and DescribeDBParameters for {@link Instance}, and, when a load-host
 * zone is given, the EC2 instance metadata service's zone. CloudWatch serves the minute in progress too, so a
 * series shorter than a minute has its {@code rig.cloudwatch}.
 *
 * <p>Nothing it reads is published; {@code run}'s own collectors read it through the AWS SDK. Close to stop.
 */
public final class RdsStandInRig implements AutoCloseable {

    /**
     * The stand-in instance's description (what DescribeDBInstances returns), its parameter group's parameters in
     * order (a null value: a parameter the group leaves at the engine default), and the on-demand price per hour
     * the Price List API stand-in lists for its class, deployment and region (null: it lists none).
     */
    public record Instance(String identifier, String dbiResourceId, String dbInstanceClass, String engineVersion,
                           String storageType, int allocatedGb, int iops, int throughputMibps, String availabilityZone,
                           boolean multiAz, String address, int port, String parameterGroup, int monitoringIntervalSec,
                           String monitoringRoleArn, boolean performanceInsights, Map<String, String> parameters,
                           Double listPriceUsd) {
        public Instance {
            Objects.requireNonNull(identifier, "identifier");
            Objects.requireNonNull(parameterGroup, "parameterGroup");
            parameters = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(parameters));
        }
    }

    private final RdsStandIn standIn;
    private final Disposable.Composite feeders = Disposables.composite();

    private RdsStandInRig(RdsStandIn standIn) {
        this.standIn = standIn;
    }

    /**
     * Starts the stand-in and its feeders.
     *
     * @param instance what the instance is
     * @param pgUrl the cluster standing in for it (its sessions feed Performance Insights)
     * @param dataDir the cluster's data directory (its device feeds Enhanced Monitoring and CloudWatch)
     * @param logFile the cluster's log, written with RDS's {@code log_line_prefix} in UTC (the RDS log)
     * @param loadHostZone the zone the instance metadata service says this host is in, or null (none answers)
     */
    public static RdsStandInRig start(Instance instance, PgUrl pgUrl, Path dataDir, Path logFile, String loadHostZone) {
        Clock clock = Clock.systemUTC();
        Instant since = clock.instant();
        EmStream em = new EmStream(instance.identifier(), instance.dbiResourceId(), since);
        CloudWatchPeriods cw = new CloudWatchPeriods(instance.identifier(), true);
        PiSamples pi = new PiSamples(instance.dbiResourceId());
        RdsLogFile log = new RdsLogFile(logFile, since);
        RdsStandInRig rig = new RdsStandInRig(RdsStandIn.start(em, pi, log, cw, clock, new RdsDescribe(instance),
                loadHostZone));
        try {
            CollectorContext feeder = new CollectorContext("rds-standin", () -> 0, "rds-standin", clock);
            rig.feeders.add(new OsMetricsCollector(new OsMetricsCollector.Config(dataDir, Duration.ofSeconds(1), null),
                    feeder).records().subscribe(r -> {
                        if (r instanceof OsMetrics os) {
                            em.add(os);
                            cw.add(os);
                        }
                    }));
            rig.feeders.add(new WaitsCollector(new WaitsCollector.Config(pgUrl, Duration.ofSeconds(1)), feeder)
                    .records().subscribe(r -> {
                        if (r instanceof Waits w) {
                            pi.add(w);
                        }
                    }));
            return rig;
        } catch (RuntimeException e) {
            rig.close();
            throw e;
        }
    }

    /** Where {@code rds.endpoint} (and the instance metadata endpoint) point. */
    public URI endpoint() {
        return standIn.endpoint();
    }

    /** Calls answered so far, by action. */
    public Map<String, Long> calls() {
        return standIn.calls();
    }

    @Override
    public void close() {
        feeders.dispose();
        standIn.close();
    }
}
