package io.rigscope.collectors.sources;

import io.rigscope.collectors.CollectorContext;
import io.rigscope.collectors.CollectorSet;
import io.rigscope.collectors.aws.AwsSettings;
import io.rigscope.collectors.aws.CloudWatchCollector;
import io.rigscope.collectors.aws.EnhancedMonitoringCollector;
import io.rigscope.collectors.aws.PerformanceInsightsCollector;
import io.rigscope.collectors.aws.RdsLogCollector;
import io.rigscope.collectors.canary.DiskCanary;
import io.rigscope.collectors.db.DbSampler;
import io.rigscope.collectors.os.OsMetricsCollector;
import io.rigscope.collectors.pglog.LogLinePrefix;
import io.rigscope.collectors.pglog.PgLogCollector;
import io.rigscope.collectors.process.ProcessCollector;
import io.rigscope.collectors.vmstat.VmstatCollector;
import io.rigscope.collectors.waits.WaitsCollector;
import io.rigscope.model.wire.WireRecord;
import io.rigscope.pg.PgUrl;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import reactor.core.publisher.Flux;

/**
 * The telemetry sources of a run, as sets of collectors: those on this host ({@link #local}) and those of an
 * RDS instance ({@link #rds}). The collectors' library API, for the run orchestration and {@code rigscope collect}.
 *
 * <pre>{@code
 * CollectorSet set = TelemetrySources.local(new TelemetrySources.Local(PgUrl.parse("pg", pg.libpqUrl("postgres", "postgres")),
 *         pg.logFile(), null, false, pg.dataDir(), List.of("usage_events"), null), CollectorContext.of(seriesId));
 * Disposable running = set.merged().publishOn(publishThread).subscribe(publisher::publish);
 * }</pre>
 */
public final class TelemetrySources {

    /** The local collectors, in the order {@link #local} returns them. */
    public static final List<String> LOCAL = List.of("vmstat", "os", "waits", "db", "pglog", "canary");
    /** The RDS collectors, in the order {@link #rds} returns them. */
    public static final List<String> RDS = List.of("em", "pi", "rdslog", "cloudwatch");

    private TelemetrySources() {
    }

    /**
     * Where the local sources are.
     *
     * @param pgUrl the target database (waits, db); null leaves those two out
     * @param pgLogFile the server's stderr log file (pglog); null leaves it out
     * @param logLinePrefix the server's log_line_prefix; null is the default {@code %m [%p] }
     * @param logFromStart read the log file from its start rather than its end
     * @param dataDir the Postgres data directory: its device for os, its parent's filesystem for the canary;
     *                null uses the working directory
     * @param tables tables the DB sampler reports
     * @param interval sampling interval of vmstat, os, waits and db (whole seconds for vmstat and waits);
     *                 null is 1 s
     * @param canaryDir where the disk canary writes; null is beside the data directory
     * @param measureDisk false when the database's disk is not on this host: no os, no canary
     * @param servicePid the service's process on this host, watched by the process collector ({@code rig.process});
     *                   null: none
     */
    public record Local(PgUrl pgUrl, Path pgLogFile, String logLinePrefix, boolean logFromStart, Path dataDir,
                        List<String> tables, Duration interval, Path canaryDir, boolean measureDisk, Long servicePid) {

        /** Every local source but the service's process. */
        public Local(PgUrl pgUrl, Path pgLogFile, String logLinePrefix, boolean logFromStart, Path dataDir,
                     List<String> tables, Duration interval, Path canaryDir, boolean measureDisk) {
            this(pgUrl, pgLogFile, logLinePrefix, logFromStart, dataDir, tables, interval, canaryDir, measureDisk, null);
        }

        public Local {
            tables = tables == null ? List.of() : List.copyOf(tables);
            dataDir = dataDir == null ? Path.of("").toAbsolutePath() : dataDir.toAbsolutePath();
            interval = interval == null ? Duration.ofSeconds(1) : interval;
            canaryDir = canaryDir != null ? canaryDir.toAbsolutePath()
                    : dataDir.getParent() == null ? dataDir : dataDir.getParent();
        }

        /** Every local source, the disk view and canary on {@code dataDir}'s filesystem. */
        public Local(PgUrl pgUrl, Path pgLogFile, String logLinePrefix, boolean logFromStart, Path dataDir,
                     List<String> tables, Duration interval, Path canaryDir) {
            this(pgUrl, pgLogFile, logLinePrefix, logFromStart, dataDir, tables, interval, canaryDir, true);
        }

        /** The canary beside the data directory (in its parent). */
        public Local(PgUrl pgUrl, Path pgLogFile, String logLinePrefix, boolean logFromStart, Path dataDir,
                     List<String> tables, Duration interval) {
            this(pgUrl, pgLogFile, logLinePrefix, logFromStart, dataDir, tables, interval, null, true);
        }

        /**
         * These sources with the disk canary writing in {@code dir}: the host's disk when the database has a volume
         * of its own (the canary tells the host's stalls from the database's); null keeps it beside the data
         * directory.
         */
        public Local withCanaryDir(Path dir) {
            return new Local(pgUrl, pgLogFile, logLinePrefix, logFromStart, dataDir, tables, interval, dir, measureDisk,
                    servicePid);
        }

        /**
         * These sources without the disk view ({@code os}) and the canary: the database's disk is not on this host
         * (a remote server, RDS), and this host's disk says nothing of it.
         */
        public Local withoutLocalDisk() {
            return new Local(pgUrl, pgLogFile, logLinePrefix, logFromStart, dataDir, tables, interval, canaryDir, false,
                    servicePid);
        }

        /** These sources with the service's process {@code pid} (on this host) watched ({@code rig.process}). */
        public Local withServicePid(long pid) {
            return new Local(pgUrl, pgLogFile, logLinePrefix, logFromStart, dataDir, tables, interval, canaryDir,
                    measureDisk, pid);
        }
    }

    /**
     * Where the RDS instance is.
     *
     * @param dbInstanceIdentifier the instance's identifier (RDS log, CloudWatch); null leaves those out
     * @param dbiResourceId the instance's resource id (Enhanced Monitoring stream, PI identifier); null leaves
     *                      those out
     * @param since read from this time on; null is now
     */
    public record Rds(String dbInstanceIdentifier, String dbiResourceId, Instant since) {
    }

    /**
     * The local collectors whose sources are configured: vmstat always; os and canary unless the database's disk
     * is not on this host ({@link Local#withoutLocalDisk}); waits and db with a {@code pgUrl}; pglog with a
     * {@code pgLogFile}; process with a {@code servicePid}.
     */
    public static CollectorSet local(Local config, CollectorContext ctx) {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(ctx, "ctx");
        Map<String, Flux<WireRecord>> out = new LinkedHashMap<>();
        Duration wholeSeconds = Duration.ofSeconds(Math.max(1, config.interval().toSeconds()));
        out.put("vmstat", new VmstatCollector(new VmstatCollector.Config(null, wholeSeconds), ctx).records());
        if (config.measureDisk()) {
            out.put("os", new OsMetricsCollector(new OsMetricsCollector.Config(config.dataDir(), config.interval(),
                    null), ctx).records());
        }
        if (config.pgUrl() != null) {
            out.put("waits", new WaitsCollector(new WaitsCollector.Config(config.pgUrl(), wholeSeconds), ctx).records());
            out.put("db", new DbSampler(new DbSampler.Config(config.pgUrl(), config.tables(), config.interval()), ctx)
                    .records());
        }
        if (config.pgLogFile() != null) {
            LogLinePrefix prefix = config.logLinePrefix() == null ? LogLinePrefix.defaults()
                    : LogLinePrefix.of(config.logLinePrefix(), null);
            out.put("pglog", new PgLogCollector(new PgLogCollector.Config(config.pgLogFile(), prefix,
                    config.logFromStart(), null), ctx).events());
        }
        if (config.measureDisk()) {
            out.put("canary", new DiskCanary(DiskCanary.Config.in(config.canaryDir()), ctx).records());
        }
        if (config.servicePid() != null) {
            out.put("process", new ProcessCollector(new ProcessCollector.Config(config.servicePid(), null, null, null),
                    ctx).records());
        }
        return new CollectorSet(out);
    }

    /**
     * The RDS collectors whose identifiers are configured: em and pi with a DbiResourceId, rdslog and cloudwatch
     * with a DB instance identifier.
     */
    public static CollectorSet rds(Rds config, AwsSettings aws, CollectorContext ctx) {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(aws, "aws");
        Map<String, Flux<WireRecord>> out = new LinkedHashMap<>();
        if (config.dbiResourceId() != null) {
            out.put("em", new EnhancedMonitoringCollector(new EnhancedMonitoringCollector.Config(config.dbiResourceId(),
                    config.since(), null), aws, ctx).records());
            out.put("pi", new PerformanceInsightsCollector(new PerformanceInsightsCollector.Config(config.dbiResourceId(),
                    config.since(), null, null), aws, ctx).records());
        }
        if (config.dbInstanceIdentifier() != null) {
            out.put("rdslog", new RdsLogCollector(new RdsLogCollector.Config(config.dbInstanceIdentifier(), null,
                    config.since(), null), aws, ctx).events());
            out.put("cloudwatch", new CloudWatchCollector(new CloudWatchCollector.Config(config.dbInstanceIdentifier(),
                    null, config.since(), null), aws, ctx).records());
        }
        return new CollectorSet(out);
    }
}
