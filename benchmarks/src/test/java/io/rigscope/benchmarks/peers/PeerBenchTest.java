package io.rigscope.benchmarks.peers;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.model.proc.ProcStat;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The rule of "holds", the peers' discovery and the /proc reading, without running anything. */
class PeerBenchTest {

    private static PeerStep step(long count, long spanNanos, Map<String, String> tool) {
        return new PeerStep(10_000, Duration.ofSeconds(10), count, 1_000, 1_000 + spanNanos, 2_000_000_000L,
                1_000_000_000L, 29_000, tool, 0.005, null);
    }

    @Test
    void aStepCarriesTheHostsJitterMeasuredDuringIt() {
        io.rigscope.benchmarks.generator.TimerJitter j = new io.rigscope.benchmarks.generator.TimerJitter(1000, 9_990, 0.06, 0.4, 7.5);
        PeerStep s = new PeerStep(10_000, Duration.ofSeconds(10), 100_000, 1_000, 1_000 + 9_999_900_000L,
                2_000_000_000L, 1_000_000_000L, -1, Map.of(), 0.005, j);
        assertThat(s.toMap()).containsEntry("host_jitter_during_step", j.toMap());
        assertThat(step(100_000, 9_999_900_000L, Map.of()).toMap()).doesNotContainKey("host_jitter_during_step");
    }

    @Test
    void aStepHoldsWhenTheServerCountedTheRateOverTheWholeStepWithNoErrorNoDropNoCap() {
        // 100,000 requests evenly over 10 s: (n - 1) / span = 10,000/s exactly
        PeerStep exact = step(100_000, 9_999_900_000L, Map.of("errors", "0", "dropped", "0"));
        assertThat(exact.held()).isTrue();
        assertThat(exact.serverRate()).isEqualTo(10_000.0);
        assertThat(exact.cpuUsPerRequest()).isEqualTo(20.0);
        assertThat(exact.toMap()).containsEntry("holds", true).containsEntry("server_counted", 100_000L)
                .containsEntry("expected", 100_000L).containsEntry("server_cpu_us_per_request", 10.0);
        // the whole count at the right pace, but the tool stopped early: 0.6 % short
        assertThat(step(99_400, 9_939_900_000L, Map.of()).held()).isFalse();
        // the whole count, but spread over 10.1 s (the tool fell behind and caught up late): 1 % slow
        assertThat(step(100_000, 10_099_900_000L, Map.of()).held()).isFalse();
        // within 0.5 % on both
        assertThat(step(99_600, 9_959_000_000L, Map.of()).held()).isTrue();
        assertThat(step(100_000, 9_999_900_000L, Map.of("errors", "1")).held()).isFalse();
        assertThat(step(100_000, 9_999_900_000L, Map.of("dropped", "3")).held()).isFalse();
        assertThat(step(100_000, 9_999_900_000L, Map.of("capped", "true")).held()).isFalse();
        assertThat(step(0, 0, Map.of()).held()).isFalse();
    }

    @Test
    void aStepReportsTheToolsOwnLatencyFigures() {
        PeerStep s = step(100_000, 9_999_900_000L, Map.of("latency", "response_time", "p50_ms", "0.1234",
                "p99_ms", "1.5", "sent", "100000"));
        assertThat(s.latency()).containsEntry("measures", "response_time").containsEntry("p50_ms", 0.123)
                .containsEntry("p99_ms", 1.5).doesNotContainKey("sent");
        assertThat(s.line("hyperfoil", 2, 5)).contains("hyperfoil").contains("step 2/5").contains("holds")
                .contains("its p99 1.5 ms");
    }

    @Test
    void aPeerNotBuiltOrWithAMissingJarIsSkippedSayingWhy(@TempDir Path dir) throws Exception {
        PeerBench.Tool none = PeerBench.find(dir, "hyperfoil");
        assertThat(none.skipped()).contains("not built").contains(PeerBench.BUILD_PEERS).contains("hyperfoil-core");
        Path target = Files.createDirectories(dir.resolve("gatling/target"));
        Files.writeString(target.resolve("rigscope-peer-gatling.jar"), "");
        Files.writeString(target.resolve("peer.classpath"), dir.resolve("gone.jar") + java.io.File.pathSeparator);
        PeerBench.Tool missing = PeerBench.find(dir, "gatling");
        assertThat(missing.skipped()).contains("gone.jar").contains("missing");
        Files.writeString(dir.resolve("gone.jar"), "");
        PeerBench.Tool found = PeerBench.find(dir, "gatling");
        assertThat(found.skipped()).isNull();
        assertThat(found.mainClass()).isEqualTo("io.rigscope.peers.gatling.GatlingPeer");
        assertThat(found.classpath()).startsWith(target.resolve("rigscope-peer-gatling.jar").toString());
    }

    @Test
    void procStatCpuIsUserPlusSystemCountedFromTheLastParenthesis() {
        String stat = "4242 (java (x) y) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 75 0 0 20 0 30 0 1 2 3";
        assertThat(ProcStat.parse(stat).cpuNanos()).isEqualTo(325 * 10_000_000L);
    }

    @Test
    void sleepsAreEachThreadsVoluntarySwitchesPerRequestTheServerCounted() throws InterruptedException {
        String status = "Name:\tjava\nState:\tS (sleeping)\nvoluntary_ctxt_switches:\t1234\n"
                + "nonvoluntary_ctxt_switches:\t56\n";
        assertThat(ThreadSleeps.voluntarySwitches(status)).isEqualTo(1234);
        assertThat(ThreadSleeps.voluntarySwitches("Name:\tx\n")).isZero();
        // a thread that starts, sleeps and ends within the span is counted, though /proc forgets it when it ends
        long self = ProcessHandle.current().pid();
        assertThat(ThreadSleeps.sleepsByThread(self)).isNotEmpty();
        assertThat(ThreadSleeps.sleepsByThread(Long.MAX_VALUE)).isNull();
        ThreadSleeps counting = ThreadSleeps.start(self);
        Thread sleeper = new Thread(() -> {
            for (int i = 0; i < 100; i++) {
                java.util.concurrent.locks.LockSupport.parkNanos(5_000_000);
            }
        });
        sleeper.start();
        sleeper.join();
        // 100 sleeps of which at most the last 100 ms (20) go unseen
        assertThat(counting.stop()).isGreaterThanOrEqualTo(80);
        assertThat(ThreadSleeps.start(Long.MAX_VALUE).stop()).isEqualTo(-1);
        // 29,000 sleeps over the 100,000 requests the server counted
        assertThat(step(100_000, 9_999_900_000L, Map.of()).toMap()).containsEntry("sleeps_per_request", 0.29);
        PeerStep unknown = new PeerStep(10_000, Duration.ofSeconds(10), 100_000, 1_000, 1_000 + 9_999_900_000L,
                2_000_000_000L, 1_000_000_000L, -1, Map.of(), 0.005, null);
        assertThat(unknown.toMap()).containsEntry("sleeps_per_request", null);
    }

    @Test
    void protocolFieldsAreKeyValueTokensAfterTheirHead() {
        assertThat(PeerBench.fields("result sent=10 errors=0 p99_ms=1.2", "result"))
                .containsEntry("sent", "10").containsEntry("errors", "0").containsEntry("p99_ms", "1.2");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> PeerBench.fields("error boom", "result"))
                .hasMessageContaining("error boom");
    }
}
