package io.rigscope.rig.selftest;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.model.topic.Topic;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One real series (own embedded broker, private PostgreSQL, the SUT in its own JVM, every local collector, the live
 * analyzer) with a fault in each repeat: the broker restarted, an analyzer child killed and restarted, PostgreSQL
 * restarted. Each test reads one guarantee from it.
 */
@Tag("it")
class FaultSeriesTest {

    @TempDir
    static Path dir;
    static FaultSeries.Outcome outcome;

    @BeforeAll
    static void runTheSeries() {
        outcome = new FaultSeries(dir, System.out).run();
    }

    @AfterAll
    static void stopTheBroker() {
        if (outcome != null) {
            outcome.close();
        }
    }

    @Test
    void aBrokerRestartedMidRepeatLosesNoSampleAndLeavesTheReportAsTheProducedRecordsMakeIt() {
        BrokerRestart r = BrokerRestart.of(outcome);

        assertThat(r.downSec()).isGreaterThanOrEqualTo(FaultSeries.BROKER_DOWN.toSeconds());
        assertThat(r.samplesReceived()).isPositive().isEqualTo(r.ledgerSent());
        assertThat(r.lost()).isZero();
        assertThat(r.onTopics()).isEqualTo(r.produced());
        assertThat(r.onTopics().get(Topic.SAMPLES)).isPositive();
        assertThat(r.reportFromTopicsIdentical()).isTrue();
        assertThat(r.liveReportIdentical()).isTrue();
        assertThat(r.holds()).isTrue();
    }

    @Test
    void anAnalyzerKilledMidSeriesAndRestartedWritesTheUninterruptedReportByteForByte() {
        AnalyzerRestart r = AnalyzerRestart.of(outcome);

        assertThat(r.killExit()).isEqualTo(137);
        assertThat(r.restartedExit()).isIn(0, 99);
        assertThat(r.identical()).isTrue();
    }

    @Test
    void aPostgresRestartIsSurvivedWithinFiveSecondsMarkedAsAGapAndListedAsMissing() {
        PgRestart r = PgRestart.of(outcome);

        assertThat(r.downSec()).isGreaterThanOrEqualTo(FaultSeries.PG_DOWN.toSeconds());
        assertThat(r.sutAnsweredAfter()).isTrue();
        assertThat(r.sutReconnectSec()).isLessThanOrEqualTo(PgRestart.RECONNECT_LIMIT_SEC);
        assertThat(r.collectorReconnectSec()).containsOnlyKeys("rig.db", "rig.waits")
                .allSatisfy((stream, s) -> assertThat(s).as(stream).isLessThanOrEqualTo(PgRestart.RECONNECT_LIMIT_SEC));
        assertThat(r.gapSpans()).containsOnlyKeys("rig.db", "rig.waits").doesNotContainValue(false);
        assertThat(r.missingOverOutage()).containsExactlyInAnyOrder("rig.db", "rig.waits");
        assertThat(r.episodesOverOutage())
                .allSatisfy(e -> assertThat(e.missing()).contains("rig.db", "rig.waits"));
        assertThat(r.holds()).isTrue();
    }
}
