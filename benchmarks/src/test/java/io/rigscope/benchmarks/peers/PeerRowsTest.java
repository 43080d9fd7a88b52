package io.rigscope.benchmarks.peers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Each tool's two rows of {@code --vs-peers}: what its JVM is told, and the goal judged from the figures. */
class PeerRowsTest {

    private static PeerBench.Config config() {
        return new PeerBench.Config(List.of(10_000.0), Duration.ofSeconds(5), Duration.ZERO, 10_000, 0.005, List.of(),
                "", Path.of("peers"), Optional.empty(), "none", 1, 64, 2, 1, 1000, 64,
                Map.of("rigscope.peer.max-send-lag-us", "0", "rigscope.peer.poll-us", "100"), Duration.ZERO,
                Path.of("logs"), Optional.empty(), "not pinned", List.of("defaults", "best"));
    }

    @Test
    void rigscopesDefaultsAreGeneratesAndItsBestTheBenchFlags() {
        PeerRows.Row defaults = PeerRows.of("rigscope", "defaults", config(), 2);
        // no loops nor cap: RigscopePeer takes generate's at each step's rate (DefaultSizing)
        assertThat(defaults.properties()).doesNotContainKeys("rigscope.peer.threads", "rigscope.peer.max-in-flight")
                .containsEntry("rigscope.peer.max-send-lag-us", "100")
                .containsEntry("rigscope.peer.min-wake-gap-us", "50").containsEntry("rigscope.peer.poll-us", "0")
                .containsEntry("rigscope.peer.preconnect-ms", "100").containsEntry("rigscope.peer.busy-poll", "false");
        assertThat(defaults.settings()).containsEntry("wake_policy", "adaptive")
                .containsEntry("max-in-flight", "generate's: 25 ms of the rate, at least 256")
                .containsEntry("threads", "generate's: one per 50,000 req/s, at most the 2 CPU(s)");
        // that generate has no fixed cap nor loop count either: rig.cli.PeerRowsDefaultsTest
        PeerRows.Row best = PeerRows.of("rigscope", "best", config(), 2);
        assertThat(best.properties()).containsEntry("rigscope.peer.threads", "1")
                .containsEntry("rigscope.peer.max-in-flight", "1000").containsEntry("rigscope.peer.max-send-lag-us", "0")
                .containsEntry("rigscope.peer.poll-us", "100");
        assertThat(best.settings()).containsEntry("wake_policy", "precise");
    }

    @Test
    void peersDefaultsSetNothingAndTheirBestSetsTheirTuning() {
        assertThat(PeerRows.of("hyperfoil", "defaults", config(), 2).properties()).isEmpty();
        assertThat(PeerRows.of("hyperfoil", "best", config(), 2).properties())
                .containsEntry("rigscope.peer.threads", "1").containsEntry("rigscope.peer.connections", "64")
                .containsEntry("rigscope.peer.max-in-flight", "1000")
                .containsEntry("rigscope.peer.session-limit-policy", "CONTINUE")
                .containsEntry("rigscope.peer.variance", "false");
        assertThat(PeerRows.of("gatling", "defaults", config(), 2).properties())
                .containsEntry("rigscope.peer.share-connections", "false");
        assertThat(PeerRows.of("gatling", "best", config(), 2).properties())
                .containsEntry("rigscope.peer.share-connections", "true");
        assertThat(PeerRows.of("wrk", "defaults", config(), 2).settings()).containsEntry("threads", 2)
                .containsEntry("connections", 10);
        assertThat(PeerRows.of("wrk", "best", config(), 2).settings()).containsEntry("threads", 1)
                .containsEntry("connections", 64);
    }

    @Test
    void rowsParseInTheirOwnOrder() {
        assertThat(PeerRows.parse("best,defaults")).containsExactly("defaults", "best");
        assertThat(PeerRows.parse("best")).containsExactly("best");
        assertThatThrownBy(() -> PeerRows.parse("fast")).hasMessageContaining("'fast'");
    }

    @Test
    @SuppressWarnings("unchecked")
    void theGoalComparesRigscopesRowsWithEveryOpenLoopPeerRow() {
        Map<String, Object> rigscope = Map.of("tool", "rigscope",
                "defaults", Map.of("max_open_rate_per_s", 30_000.0, "cpu_us_per_request", 17.0),
                "best", Map.of("max_open_rate_per_s", 40_000.0, "cpu_us_per_request", 15.0));
        Map<String, Object> hyperfoil = Map.of("tool", "hyperfoil",
                "defaults", Map.of("max_open_rate_per_s", 10_000.0, "cpu_us_per_request", 30.0),
                "best", Map.of("max_open_rate_per_s", 40_000.0, "cpu_us_per_request", 16.0));
        Map<String, Object> gatling = Map.of("tool", "gatling", "skipped", "not built");
        Map<String, Object> wrk = Map.of("tool", "wrk",
                "best", Map.of("max_closed_rate_per_s", 70_000.0, "cpu_us_per_request", 9.0));
        Map<String, Object> goal = PeerGoal.of(List.of(rigscope, hyperfoil, gatling, wrk));
        assertThat((List<Object>) goal.get("peer_rows_counted")).containsExactly("hyperfoil defaults", "hyperfoil best");
        assertThat(goal).containsEntry("peers_max_open_rate_per_s", 40_000.0)
                .containsEntry("peers_least_cpu_us_per_request", 16.0);
        assertThat((Map<String, Object>) goal.get("rigscope_defaults")).containsEntry("rate_met", false)
                .containsEntry("cpu_met", false).containsEntry("met", false);
        assertThat((Map<String, Object>) goal.get("rigscope_best")).containsEntry("met", true);
    }
}
