package io.rigscope.rig.rds;

import io.rigscope.awsstandin.rds.RdsInstance;
import io.rigscope.awsstandin.rds.RdsStandIn;
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
import java.util.Map;
import reactor.core.Disposable;
import reactor.core.Disposables;

/**
 * An RDS instance stood in for by a private PostgreSQL cluster, for {@code run --config} with {@code rds:} pointed
 * at {@link #endpoint()}: the {@link RdsStandIn} the calibration's rds profile uses, fed by this host's device
 * readings and the cluster's sessions and log, answering also DescribeDBInstances and DescribeDBParameters for
 * {@link RdsInstance} and, when a load-host zone is given, the EC2 instance metadata service's zone. CloudWatch
 * serves the minute in progress too, so a series shorter than a minute has its {@code rig.cloudwatch}. Close to stop.
 */
final class RdsStandInRig implements AutoCloseable {

    private final RdsStandIn standIn;
    private final Disposable.Composite feeders = Disposables.composite();

    private RdsStandInRig(RdsStandIn standIn) {
        this.standIn = standIn;
    }

    /** Starts the stand-in and its feeders: the cluster's sessions (PI), data directory's device (EM, CloudWatch), log. */
    static RdsStandInRig start(RdsInstance instance, PgUrl pgUrl, Path dataDir, Path logFile, String loadHostZone) {
        Clock clock = Clock.systemUTC();
        RdsStandInRig rig = new RdsStandInRig(RdsStandIn.start(instance.identifier(), instance.dbiResourceId(), logFile,
                clock, true, instance, loadHostZone));
        try {
            CollectorContext feeder = new CollectorContext("rds-standin", () -> 0, "rds-standin", clock);
            rig.feeders.add(new OsMetricsCollector(new OsMetricsCollector.Config(dataDir, Duration.ofSeconds(1), null),
                    feeder).records().ofType(OsMetrics.class).subscribe(rig.standIn::add));
            rig.feeders.add(new WaitsCollector(new WaitsCollector.Config(pgUrl, Duration.ofSeconds(1)), feeder)
                    .records().ofType(Waits.class).subscribe(rig.standIn::add));
            return rig;
        } catch (RuntimeException e) {
            rig.close();
            throw e;
        }
    }

    URI endpoint() {
        return standIn.endpoint();
    }

    Map<String, Long> calls() {
        return standIn.calls();
    }

    @Override
    public void close() {
        feeders.dispose();
        standIn.close();
    }
}
