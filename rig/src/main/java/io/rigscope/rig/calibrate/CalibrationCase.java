package io.rigscope.rig.calibrate;

import io.rigscope.analyzer.decision.SeriesReport;
import io.rigscope.localenv.postgres.PrivatePostgres;
import io.rigscope.rig.series.SeriesPlan;
import io.rigscope.sut.auth.ApiKeys;
import java.net.URI;
import java.time.Duration;

/**
 * One provocation of a tail cause, run for real by {@link CaseRun}: a private PostgreSQL cluster configured for
 * it, the reference SUT, one short sustained repeat with every local collector and the live analyzer, and the
 * provocation itself started when the repeat's load starts. A definition only: it holds no state between runs.
 *
 * <p>Each case says what the analyzer should find ({@link #expected()}), how the cluster and the SUT are set
 * up, what the load is, how to provoke, and which telemetry shows that the provocation really happened.
 */
public interface CalibrationCase {

    /** The case's name on the command line, e.g. {@code wal-pool}. */
    String name();

    /**
     * The cause code the analyzer should name for the dominant episode ({@code wal_pool}, {@code generator}, ...),
     * or {@code none} when the run should have no episode.
     */
    String expected();

    /** The recipe in one line, for the console and docs/calibrate.md. */
    String recipe();

    /** The private cluster's options, given the ones every case starts from ({@link CaseRun#BASE_CLUSTER}). */
    default PrivatePostgres.Options cluster(PrivatePostgres.Options base) {
        return base;
    }

    /** When the SUT touches the API key's row. */
    default ApiKeys.Touch touch() {
        return ApiKeys.Touch.PER_MINUTE;
    }

    /** The SUT's connection pool size; 0 is the SUT's default (16). */
    default int sutPoolSize() {
        return 0;
    }

    /** The series: one short sustained repeat against {@code target}. */
    SeriesPlan plan(String series, URI target, String apiKey);

    /** Work before the series starts (the SUT has migrated the schema): seeding, table settings. Blocking. */
    default void prepare(CaseContext ctx) {
    }

    /**
     * Starts the provocation as the sustained repeat's load starts. Returns at once (the work runs on threads
     * of its own); closing the result ends it and waits for it.
     *
     * @param repeat the repeat's scheduled length
     */
    Provocation provoke(CaseContext ctx, Duration repeat);

    /** What the telemetry shows of the provocation, in one line with numbers (never the analyzer's words). */
    String telemetry(WireTelemetry t);

    /**
     * Judges the analyzer's report against {@link #expected()}.
     *
     * @param provoked the provocation as it ran (closed), or null when the sustained repeat never started
     */
    default CaseResult judge(SeriesReport report, String telemetry, Provocation provoked) {
        return CaseResult.byCause(this, report, telemetry, provoked == null ? "not started" : provoked.note());
    }
}
