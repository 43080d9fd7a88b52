package io.rigscope.rig.calibrate;

import io.rigscope.analyzer.decision.Cause;
import io.rigscope.analyzer.decision.Episode.Confidence;
import io.rigscope.collectors.pglog.LogLinePrefix;
import io.rigscope.localenv.postgres.PrivatePostgres;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Which telemetry a calibration gives the analyzer ({@code rigscope calibrate --profile}). The cases, their
 * clusters, the SUT, the load and the provocations are the same in both; only the streams differ, and so does
 * what counts as calibrated.
 */
public enum CalibrationProfile {

    /**
     * Every local collector (vmstat, os, waits, db, pglog, canary). A case is ok when it judges itself ok
     * ({@link CalibrationCase#judge}): the expected cause at any confidence, {@code clean} clean.
     */
    LOCAL("local"),

    /**
     * Only what an RDS instance gives ({@link RdsTelemetry}): Enhanced Monitoring, Performance Insights, the log
     * through RDS's download, CloudWatch, the DB sampler over SQL, and the generator's health; no canary, no
     * vmstat of the database host. The cluster logs with RDS's {@code log_line_prefix} in UTC. A case is ok
     * when: {@code wal-pool} and {@code vacuum-storm} find their cause {@code attributed} (most likely is not
     * enough); {@code clean} is clean; every other case with an expected cause does not name another cause
     * {@code attributed} (a confident wrong answer); a case judged by its seconds ({@code edge-second}) as it
     * judges itself.
     */
    RDS("rds");

    /**
     * How long the rds profile waits for the analyzer after a series ends. A live analysis decides a repeat only
     * once every stream it has seen covers the repeat's end (TelemetryIndex#settled): for CloudWatch that is its
     * 120-s tolerance plus the 5-s grace, so a case whose series saw a CloudWatch point is decided no sooner than
     * ~125 s after its load (measured: the first vacuum-storm run on this profile hit the session's default 90 s).
     */
    static final Duration RDS_ANALYZER_TIMEOUT = Duration.ofSeconds(240);

    /** The causes the rds profile requires {@code attributed}. */
    static final Set<String> MUST_ATTRIBUTE = Set.of(Cause.WAL_POOL.code(), Cause.VACUUM_STORM.code());

    private final String code;

    CalibrationProfile(String code) {
        this.code = code;
    }

    /** The profile's name on the command line. */
    public String code() {
        return code;
    }

    /** The profile called {@code code}, if there is one. */
    public static Optional<CalibrationProfile> byCode(String code) {
        return Arrays.stream(values()).filter(p -> p.code.equals(code)).findFirst();
    }

    /** The profiles' names, comma-separated, for messages. */
    public static String codes() {
        return String.join(", ", Arrays.stream(values()).map(CalibrationProfile::code).toList());
    }

    /** The case's cluster options under this profile: rds logs as RDS does ({@code %t:%r:%u@%d:[%p]:}, UTC). */
    PrivatePostgres.Options cluster(PrivatePostgres.Options caseOptions) {
        return this == LOCAL ? caseOptions
                : caseOptions.with("log_line_prefix", "'" + LogLinePrefix.RDS + "'").with("log_timezone", "'UTC'");
    }

    /** How long to wait for the analyzer after the series ends; null is the session's default (90 s). */
    Duration analyzerTimeout() {
        return this == RDS ? RDS_ANALYZER_TIMEOUT : null;
    }

    /** The case's result as this profile judges it (see each profile). */
    CaseResult judge(CalibrationCase c, CaseResult asJudged) {
        if (this == LOCAL || "none".equals(c.expected()) || !isCause(c.expected())) {
            return asJudged;
        }
        boolean right = asJudged.found().equals(c.expected());
        boolean attributed = Confidence.ATTRIBUTED.code().equals(asJudged.confidence());
        boolean ok = MUST_ATTRIBUTE.contains(c.expected()) ? right && attributed : right || !attributed;
        return asJudged.judged(ok);
    }

    private static boolean isCause(String code) {
        return List.of(Cause.values()).stream().anyMatch(k -> k != Cause.UNATTRIBUTED && k.code().equals(code));
    }
}
