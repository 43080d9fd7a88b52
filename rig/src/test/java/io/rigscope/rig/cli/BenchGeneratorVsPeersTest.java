package io.rigscope.rig.cli;

import static io.rigscope.rig.cli.RigscopeRun.rigscope;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rigscope.benchmarks.generator.LagGoal;
import io.rigscope.benchmarks.generator.TimerJitter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bench generator --vs-peers}: its flags, its JSON, and peers that cannot be had. */
@Tag("it")
class BenchGeneratorVsPeersTest {

    @Test
    void badFlagsExitTwoNamingTheFlag() {
        RigscopeRun r = rigscope("bench", "generator", "--vs-peers", "--ladder", "5000,lots");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("--ladder").contains("lots");
        r = rigscope("bench", "generator", "--vs-peers", "--ladder", "5000,0");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("--ladder").contains("> 0");
        r = rigscope("bench", "generator", "--vs-peers", "--target", "http://127.0.0.1:9/");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("--target");
        r = rigscope("bench", "generator", "--vs-peers", "--vs-wrk");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("--vs-wrk");
        r = rigscope("bench", "generator", "--vs-peers", "--peer-warmup", "soon");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("--peer-warmup");
        r = rigscope("bench", "generator", "--vs-peers", "--tolerance", "0");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("--tolerance");
        r = rigscope("bench", "generator", "--vs-peers", "--peer-cpus", "server");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("--peer-cpus").contains("server");
        r = rigscope("bench", "generator", "--vs-peers", "--server-threads", "0");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("--server-threads");
        r = rigscope("bench", "generator", "--jitter-duration", "often");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("--jitter-duration");
    }

    /**
     * One short rung with no peer to be had (an empty peers directory, a wrk that does not exist): rigscope's own
     * figures in the documented shape, and every peer listed as skipped with its reason, on stderr as well.
     * Whether the rung holds on a busy test machine is not asserted.
     */
    @Test
    void absentPeersAreSkippedWithTheirReasonAndTheJsonKeepsItsShape(@TempDir Path dir) throws Exception {
        RigscopeRun r = rigscope("bench", "generator", "--vs-peers", "--json", "--ladder", "300",
                "--step-duration", "1s", "--peer-warmup", "0s", "--jitter-duration", "200ms",
                "--peers-dir", dir.toString(), "--wrk", dir.resolve("no-wrk").toString(),
                "--peer-jvm-options", "-Xms128m -Xmx128m -XX:+UseSerialGC");
        assertThat(r.exit()).as(r.err()).isEqualTo(0);
        JsonNode j = new ObjectMapper().readTree(r.out());
        List<String> tools = new ArrayList<>();
        for (JsonNode tool : j.get("tools")) {
            tools.add(tool.get("tool").asText());
        }
        assertThat(tools).containsExactly("rigscope", "hyperfoil", "gatling", "wrk");
        assertThat(j.get("rows").toString()).isEqualTo("[\"defaults\",\"best\"]");
        JsonNode rigscope = j.get("tools").get(0);
        assertThat(rigscope.get("version").asText()).isNotEmpty();
        for (String row : List.of("defaults", "best")) {
            JsonNode figures = rigscope.get(row);
            assertThat(figures).as(row).isNotNull();
            assertThat(figures.get("max_open_rate_per_s").isNumber()).isTrue();
            assertThat(figures.has("cpu_us_per_request")).isTrue();
            assertThat(figures.get("steps")).hasSize(1);
            JsonNode step = figures.get("steps").get(0);
            assertThat(step.get("rate_per_s").asDouble()).isEqualTo(300.0);
            for (String key : List.of("server_counted", "server_rate_per_s", "errors", "dropped", "holds",
                    "cpu_us_per_request", "sleeps_per_request", "latency")) {
                assertThat(step.has(key)).as(key).isTrue();
            }
            assertThat(step.get("server_counted").asLong()).isPositive();
            // the generator's process slept during the step (its loop waits for replies and for its timer)
            assertThat(step.get("sleeps_per_request").asDouble()).as(step.toString()).isPositive();
        }
        // defaults: what generate does without flags (its loops and cap for the step's rate, the adaptive policy);
        // best: the bench's flags (one loop, --max-in-flight 1000 by default)
        JsonNode defaults = rigscope.get("defaults").get("settings");
        assertThat(defaults.get("max-in-flight").asText()).isEqualTo("generate's: 25 ms of the rate, at least 256");
        assertThat(defaults.get("threads").asText()).startsWith("generate's: one per 50,000 req/s");
        // and at its step (300 req/s) the row ran with what generate takes there: one loop, the cap 256
        JsonNode defaultsStep = rigscope.get("defaults").get("steps").get(0);
        assertThat(defaultsStep.get("client_loops").asInt()).isEqualTo(1);
        assertThat(defaultsStep.get("max_in_flight").asInt()).isEqualTo(256);
        assertThat(defaults.get("wake_policy").asText()).isEqualTo("adaptive");
        assertThat(defaults.get("max-send-lag-us").asText()).isEqualTo("100");
        JsonNode best = rigscope.get("best").get("settings");
        assertThat(best.get("max-in-flight").asText()).isEqualTo("1000");
        assertThat(best.get("threads").asText()).isEqualTo("1");
        assertThat(best.get("min-wake-gap-us").asText()).isEqualTo("50");
        assertThat(best.get("preconnect-ms").asText()).isEqualTo("100");
        assertThat(r.err()).contains("sleeps/req").contains("rigscope defaults").contains("rigscope best");
        assertThat(j.get("timer_jitter").get("wakes").asLong()).isPositive();
        // the server, in a JVM of its own, gets an event loop per CPU unless --server-threads says otherwise
        assertThat(j.get("server_threads").asInt()).isEqualTo(io.rigscope.benchmarks.peers.CpuSplit.allowedCpus().size());
        assertThat(j.get("cpus").asText()).contains("--peer-cpus none");
        for (JsonNode peer : List.of(j.get("tools").get(1), j.get("tools").get(2), j.get("tools").get(3))) {
            assertThat(peer.get("skipped").asText()).as(peer.toString()).isNotEmpty();
            assertThat(peer.has("version")).isTrue();
        }
        assertThat(j.get("tools").get(1).get("skipped").asText()).contains("not built").contains("-Ppeers");
        assertThat(j.get("tools").get(3).get("skipped").asText()).contains("no-wrk");
        // no peer ran: the goal names none and judges nothing
        assertThat(j.get("goal").get("peer_rows_counted")).isEmpty();
        assertThat(j.get("goal").get("rigscope_defaults").get("met").isNull()).isTrue();
        assertThat(r.err()).contains("hyperfoil: skipped").contains("gatling: skipped").contains("wrk: skipped")
                .contains("rigscope defaults  step 1/1").contains("rigscope best      step 1/1");
    }

    /** One row only: --peer-rows best runs each tool once. */
    @Test
    void peerRowsChoosesTheRows(@TempDir Path dir) throws Exception {
        RigscopeRun bad = rigscope("bench", "generator", "--vs-peers", "--peer-rows", "fastest");
        assertThat(bad.exit()).isEqualTo(2);
        assertThat(bad.err()).contains("--peer-rows").contains("fastest");
        RigscopeRun r = rigscope("bench", "generator", "--vs-peers", "--json", "--ladder", "300",
                "--step-duration", "1s", "--peer-warmup", "0s", "--jitter-duration", "0s", "--peer-rows", "best",
                "--peers-dir", dir.toString(), "--wrk", dir.resolve("no-wrk").toString(),
                "--peer-jvm-options", "-Xms128m -Xmx128m -XX:+UseSerialGC");
        assertThat(r.exit()).as(r.err()).isEqualTo(0);
        JsonNode rigscope = new ObjectMapper().readTree(r.out()).get("tools").get(0);
        assertThat(rigscope.has("best")).isTrue();
        assertThat(rigscope.has("defaults")).isFalse();
        assertThat(r.err()).doesNotContain("rigscope defaults");
    }

    @Test
    void theLagGoalVerdictTellsTheHostFromTheGenerator() {
        TimerJitter quiet = new TimerJitter(50, 1000, 0.06, 0.12, 0.4);
        TimerJitter noisy = new TimerJitter(50, 1000, 0.08, 0.61, 3.0);
        Map<String, Object> met = LagGoal.of(0.2, quiet, null);
        assertThat(met.get("met")).isEqualTo(true);
        assertThat(met.get("host_allows")).isEqualTo(true);
        Map<String, Object> generator = LagGoal.of(0.85, quiet, null);
        assertThat(generator.get("met")).isEqualTo(false);
        assertThat((String) generator.get("verdict")).contains("the generator's, not the host's");
        Map<String, Object> host = LagGoal.of(0.85, noisy, null);
        assertThat(host.get("host_allows")).isEqualTo(false);
        assertThat((String) host.get("verdict")).contains("this host does not allow the goal");
        // the host's timer alone keeps to the goal, but a probe beside the run did not: the load's contention
        TimerJitter contended = new TimerJitter(1000, 20_000, 0.07, 0.9, 7.8);
        Map<String, Object> load = LagGoal.of(0.85, quiet, contended);
        assertThat(load.get("host_allows")).isEqualTo(true);
        assertThat(load.get("load_allows")).isEqualTo(false);
        assertThat(load.get("timer_jitter_during_run_p99_ms")).isEqualTo(0.9);
        assertThat((String) load.get("verdict")).contains("not under this run's load").contains("contended")
                .doesNotContain("the generator's, not the host's");
        // issue 42's criterion from the JSON alone: 0 drops, and the lag goal where the host allows it
        assertThat(LagGoal.of(0.2, quiet, null, 0)).containsEntry("goal_met", true).containsEntry("dropped", 0L);
        assertThat(LagGoal.of(0.2, quiet, null, 3)).containsEntry("goal_met", false);
        assertThat(LagGoal.of(0.85, quiet, null, 0)).containsEntry("goal_met", false);
        assertThat(LagGoal.of(0.85, noisy, null, 0)).containsEntry("goal_met", true);
        assertThat(LagGoal.of(0.2, quiet, null)).doesNotContainKey("goal_met");
        // both probes keep to it: the lag is the generator's
        Map<String, Object> own = LagGoal.of(0.85, quiet, new TimerJitter(1000, 20_000, 0.06, 0.2, 1.0));
        assertThat(own.get("load_allows")).isEqualTo(true);
        assertThat((String) own.get("verdict")).contains("the generator's, not the host's").contains("0.200 ms during the run");
    }
}
