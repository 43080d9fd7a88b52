package io.rigscope.rig;

import static io.rigscope.rig.cli.RigscopeRun.rigscope;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rigscope.generator.target.BenchServer;
import io.rigscope.localenv.net.LoopbackPorts;
import io.rigscope.rig.options.ExitCodes;
import io.rigscope.rig.cli.RigscopeRun;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@Tag("it")
class CommandLineTest {

    @Test
    void helpListsTheSubcommands() {
        RigscopeRun r = rigscope("--help");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("topics", "tail");
    }

    @Test
    void anUnknownFlagExitsTwoAndSaysWhich() {
        RigscopeRun r = rigscope("topics", "--no-such-flag");
        assertThat(r.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("--no-such-flag");
    }

    @Test
    void aBadBootstrapExitsTwoNamingTheFlag() {
        RigscopeRun r = rigscope("topics", "--bootstrap", "not a host");
        assertThat(r.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("--bootstrap 'not a host'");
    }

    @Test
    void anUnknownTopicExitsTwoListingTheTopics(@TempDir Path dir) {
        RigscopeRun r = rigscope("tail", "rig.nope", "--data-dir", dir.toString());
        assertThat(r.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("unknown topic 'rig.nope'", "rig.samples");
    }

    @Test
    void topicsOnAFreshDataDirectoryStartsTheBrokerCreatesAndListsEveryTopic(@TempDir Path dir) {
        RigscopeRun r = rigscope("topics", "--data-dir", dir.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("created " + io.rigscope.model.topic.Topic.values().length + " topic(s)");
        for (var topic : io.rigscope.model.topic.Topic.values()) {
            assertThat(r.out()).contains(topic.topicName());
        }
        RigscopeRun again = rigscope("topics", "--data-dir", dir.toString());
        assertThat(again.out()).doesNotContain("created").contains("rig.verdicts");
    }

    @Test
    void aSeriesFileWithAnUnknownKeyExitsTwoNamingFileAndKey(@TempDir Path dir) throws Exception {
        Path config = dir.resolve("bad.yaml");
        java.nio.file.Files.writeString(config, "target: {url: 'http://127.0.0.1:1'}\nsustained: {rate: 5, repets: 2}\n");
        RigscopeRun r = rigscope("run", "--config", config.toString(), "--data-dir", dir.resolve("k").toString());
        assertThat(r.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("bad.yaml: sustained.repets is not a known key here");
    }

    @Test
    void aMissingSeriesFileExitsTwo(@TempDir Path dir) {
        RigscopeRun r = rigscope("run", "--config", dir.resolve("nope.yaml").toString());
        assertThat(r.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("nope.yaml: no such file");
    }

    @Test
    void anUnknownWallExitsTwo() {
        RigscopeRun r = rigscope("demo", "--provoke", "cosmic-rays");
        assertThat(r.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("--provoke 'cosmic-rays' is not a cause this demo provokes; one of: hot-row, wal-pool, vacuum-storm, generator-pause");
    }

    @Test
    void benchGeneratorWithATargetThatIsNotAnHttpUrlExitsTwoNamingTheFlag() {
        RigscopeRun r = rigscope("bench", "generator", "--target", "ftp://127.0.0.1:21/");
        assertThat(r.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("--target 'ftp://127.0.0.1:21/' must be an http:// URL with a host");
    }

    @Test
    void generateWithAnIdleTimeoutThatIsNotADurationExitsTwoNamingTheFlag() {
        RigscopeRun r = rigscope("generate", "--url", "http://127.0.0.1:1/", "--rate", "1", "--idle-timeout", "soon");
        assertThat(r.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("Invalid value for option '--idle-timeout': 'soon' is not a duration");
    }

    @Test
    void generateWithAShareThatIsNotKOfNExitsTwoNamingIt() {
        RigscopeRun r = rigscope("generate", "--url", "http://127.0.0.1:1/", "--rate", "1", "--share", "3/2");
        assertThat(r.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("--share: share 3/2 is not one of 1/N to N/N");
        assertThat(rigscope("generate", "--url", "http://127.0.0.1:1/", "--rate", "1", "--share", "half").err())
                .contains("--share: share 'half' is not K/N");
    }

    @Test
    void benchGeneratorWithAPollIntervalOverOneMillisecondExitsTwo() {
        RigscopeRun r = rigscope("bench", "generator", "--poll-us", "2000");
        assertThat(r.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("--poll-us must be 0-1000, was 2000");
    }

    @Test
    void benchGeneratorWithALagBudgetOutsideOneToAThousandMicrosecondsOrBesidePreciseExitsTwo() {
        RigscopeRun r = rigscope("bench", "generator", "--max-send-lag-us", "0");
        assertThat(r.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("--max-send-lag-us must be 1-1000, was 0");
        RigscopeRun both = rigscope("generate", "--url", "http://127.0.0.1:1/", "--rate", "1", "--precise",
                "--max-send-lag-us", "50");
        assertThat(both.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(both.err()).contains("--precise and --max-send-lag-us exclude each other");
    }

    @Test
    void benchGeneratorWithNoWarmupRunsExitsTwo() {
        RigscopeRun r = rigscope("bench", "generator", "--warmup-runs", "0");
        assertThat(r.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("--warmup-runs must be >= 1, was 0");
    }

    @Test
    void benchGeneratorWithAnUnknownCheckOrAJsonCheckOnOkExitsTwo() {
        RigscopeRun r = rigscope("bench", "generator", "--check", "nope");
        assertThat(r.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("--check 'nope' is not body_not_contains, body_contains, json or status");
        assertThat(rigscope("bench", "generator", "--check", "json").err())
                .contains("--check json needs a JSON answer: --response-bytes 9 or more");
    }

    @Test
    void benchGeneratorWithACheckRunsWithoutAndWithItAndPrintsBothAndTheirRatios() throws Exception {
        RigscopeRun r = rigscope("bench", "generator", "--rate", "500", "--duration", "1s", "--warmup", "0s",
                "--max-in-flight", "64", "--check", "json", "--response-bytes", "100", "--json");
        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode check = new ObjectMapper().readTree(r.out()).get("check");
        assertThat(check.get("kind").asText()).isEqualTo("json");
        assertThat(check.get("response_bytes").asInt()).isEqualTo(100);
        assertThat(check.get("pairs")).hasSize(1);
        JsonNode with = check.get("pairs").get(0).get("with");
        assertThat(with.get("failed").asLong()).as("every {\"ok\":...} answer passes $.ok exists").isZero();
        assertThat(check.get("pairs").get(0).get("without").get("failed").asLong()).isZero();
        assertThat(check.get("ratio_with_over_without").get("cpu_us_per_request").isNumber()).as(r.out()).isTrue();
    }

    @Test
    void benchServerWithAPortOutOfRangeExitsTwo() {
        RigscopeRun r = rigscope("bench", "server", "--port", "70000");
        assertThat(r.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("--port must be 0-65535, was 70000");
    }

    @Test
    void benchGeneratorOffersItsLoadToATargetElsewhereAndReportsNoServerCpu() throws Exception {
        try (BenchServer server = new BenchServer(1)) {
            RigscopeRun r = rigscope("bench", "generator", "--target", server.url(), "--rate", "2000", "--duration", "1s",
                    "--warmup", "0s", "--max-in-flight", "200", "--json");
            assertThat(r.exit()).as(r.err()).isZero();
            JsonNode json = new ObjectMapper().readTree(r.out());
            assertThat(json.get("server").asText()).isEqualTo(server.url());
            assertThat(json.get("server_cpu_pct").isNull()).isTrue();
            long sent = json.get("sent").asLong();
            assertThat(sent + json.get("dropped").asLong()).isEqualTo(2000);
            assertThat(json.get("completed").asLong()).isEqualTo(sent);
            assertThat(json.get("failed").asLong()).isZero();
            assertThat(server.served()).isEqualTo(sent);
        }
    }

    @Test
    void benchGeneratorJsonReportsTheGeneratorsCpuPerRequestAsAPositiveNumber() throws Exception {
        RigscopeRun r = rigscope("bench", "generator", "--rate", "500", "--duration", "2s", "--warmup", "0s",
                "--max-in-flight", "64", "--json");
        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode json = new ObjectMapper().readTree(r.out());
        assertThat(json.get("completed").asLong()).isPositive();
        assertThat(json.get("cpu_us_per_request").isNumber()).as(r.out()).isTrue();
        assertThat(json.get("cpu_us_per_request").asDouble()).isPositive();
    }

    @Test
    void benchServerAnswersOkUntilItsDurationEnds() throws Exception {
        int port = LoopbackPorts.free();
        var result = new java.util.concurrent.CompletableFuture<RigscopeRun>();
        Thread t = new Thread(() -> result.complete(rigscope("bench", "server", "--port", Integer.toString(port), "--duration", "3s")));
        t.start();
        HttpClient client = HttpClient.newHttpClient();
        HttpRequest get = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/")).build();
        HttpResponse<String> response = null;
        for (int i = 0; i < 100 && response == null; i++) {
            try {
                response = client.send(get, HttpResponse.BodyHandlers.ofString());
            } catch (java.net.ConnectException notYet) {
                Thread.sleep(20);
            }
        }
        assertThat(response).isNotNull();
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("ok");
        RigscopeRun r = result.get(20, java.util.concurrent.TimeUnit.SECONDS);
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out().strip()).isEqualTo("http://127.0.0.1:" + port + "/");
        assertThat(r.err()).contains("bench-server  served").contains("stopping after");
    }

    @Test
    void benchAnalyzerLiveWithSamplesExitsTwo() {
        RigscopeRun r = rigscope("bench", "analyzer", "--live", "--samples", "5000");
        assertThat(r.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("--samples does not apply to --live");
        RigscopeRun rounds = rigscope("bench", "analyzer", "--live", "--rounds", "3");
        assertThat(rounds.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(rounds.err()).contains("--rounds does not apply to --live");
    }

    @Test
    void benchAnalyzerLivePrintsEveryFigureAndALineASecond() throws Exception {
        RigscopeRun r = rigscope("bench", "analyzer", "--live", "--json", "--warmup", "2s", "--duration", "10s", "--rate", "2000",
                "--stall-every", "5s");
        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode json = new ObjectMapper().readTree(r.out());
        for (String key : new String[] {"samples_per_s", "second_close_latency_p99_ms", "second_verdict_latency_p99_ms",
            "heap_after_gc_max_mb", "heap_after_gc_first_min_mb", "heap_after_gc_last_min_mb", "decisions"}) {
            assertThat(json.get(key)).as(key).isNotNull();
            assertThat(json.get(key).asDouble()).as(key).isPositive();
        }
        assertThat(json.get("samples").asLong()).isEqualTo(24_000);
        assertThat(json.get("samples_analyzed").asLong()).isEqualTo(24_000);
        assertThat(json.get("seconds_timed").asLong()).isGreaterThanOrEqualTo(10);
        assertThat(json.get("verdicts_timed").asLong()).isEqualTo(json.get("seconds_timed").asLong());
        assertThat(json.get("warmup_second_close_latency_max_ms").asDouble()).isPositive();
        assertThat(json.get("stalls").asInt()).isEqualTo(2);
        assertThat(json.get("freeze_seconds").asLong()).isPositive();
        assertThat(json.get("dead_letters").asLong()).isZero();
        assertThat(r.err()).contains("bench: live", "10/10 s");
        List<String> keys = new ArrayList<>();
        json.fieldNames().forEachRemaining(keys::add);
        assertThat(keys).containsExactly("mode", "warmup_s", "warmup_second_close_latency_max_ms", "duration_s",
                "rate_target_per_s", "sources", "samples", "samples_per_s", "samples_analyzed", "analyzed_per_s",
                "backlog_max_samples", "kept_up", "telemetry_records", "stalls",
                "second_close_latency_p50_ms", "second_close_latency_p99_ms", "second_close_latency_max_ms",
                "seconds_timed", "second_verdict_latency_p50_ms", "second_verdict_latency_p99_ms",
                "second_verdict_latency_max_ms", "verdicts_timed", "heap_after_gc_max_mb", "heap_after_gc_first_min_mb",
                "heap_after_gc_last_min_mb", "gc_readings", "gc_collectors", "decisions", "freeze_seconds", "episodes",
                "dead_letters", "pacing_lag_max_ms", "hiccup_max_ms", "ledger_lag_p50_ms", "ledger_lag_p99_ms", "published_lag_p50_ms",
                "published_lag_p99_ms", "published_after_handed_p50_ms", "published_after_handed_p99_ms", "read_lag_p50_ms", "read_lag_p99_ms", "read_after_published_p50_ms",
                "read_after_published_p99_ms", "closed_after_read_p50_ms", "closed_after_read_p99_ms", "slowest_seconds",
                "series_verdict", "attributor", "encoding", "max_heap_mb", "cpus");
        assertThat(json.get("mode").asText()).isEqualTo("live");
        assertThat(r.out()).containsPattern("\"second_close_latency_p99_ms\":\\d+\\.\\d{3},")
                .containsPattern("\"samples_per_s\":\\d+\\.\\d,");
        assertThat(json.get("slowest_seconds").isArray()).isTrue();
        // the close's path in order: acknowledged, read, closed
        assertThat(json.get("published_lag_p50_ms").asDouble()).isPositive()
                .isLessThanOrEqualTo(json.get("read_lag_p50_ms").asDouble());
        assertThat(json.get("read_lag_p50_ms").asDouble())
                .isLessThanOrEqualTo(json.get("second_close_latency_p50_ms").asDouble());
        assertThat(json.get("slowest_seconds").get(0).get("read_ms").asDouble()).isPositive();
        assertThat(json.get("sources").asInt()).isEqualTo(1);
        assertThat(json.get("kept_up").asBoolean()).isTrue();
    }

    @Test
    void benchAnalyzerLiveSharesTheRateBetweenSources() throws Exception {
        RigscopeRun bad = rigscope("bench", "analyzer", "--live", "--sources", "0");
        assertThat(bad.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(bad.err()).contains("--sources");
        // three generators at 1,000/s each: every second closes only once all three ledgers and their samples are in
        RigscopeRun r = rigscope("bench", "analyzer", "--live", "--json", "--warmup", "2s", "--duration", "6s", "--rate", "3000",
                "--sources", "3", "--stall", "0");
        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode json = new ObjectMapper().readTree(r.out());
        assertThat(json.get("sources").asInt()).isEqualTo(3);
        assertThat(json.get("samples").asLong()).isEqualTo(24_000);
        assertThat(json.get("samples_analyzed").asLong()).isEqualTo(24_000);
        assertThat(json.get("seconds_timed").asLong()).isGreaterThanOrEqualTo(6);
        assertThat(json.get("kept_up").asBoolean()).isTrue();
        assertThat(json.get("analyzed_per_s").asDouble()).isGreaterThan(2_000);
        assertThat(json.get("series_verdict").asText()).isEqualTo("PASS");
    }

    @Test
    void benchAnalyzerReplayPrintsItsFiguresAsOneJsonObject() throws Exception {
        // the smallest series the bench makes: 10 s at 100 samples/s
        RigscopeRun r = rigscope("bench", "analyzer", "--json", "--samples", "1000", "--rate", "100", "--rounds", "2");
        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode json = new ObjectMapper().readTree(r.out());
        List<String> keys = new ArrayList<>();
        json.fieldNames().forEachRemaining(keys::add);
        assertThat(keys).containsExactly("samples", "raw_consume_per_s", "replay_per_s", "ratio",
                "raw_cpu_ns_per_sample", "replay_cpu_ns_per_sample", "analysis_cpu_ns_per_sample",
                "replay_after_input_ms", "heap_peak_mb", "heap_after_gc_peak_mb",
                "gc_during_replay", "rounds", "records", "publish_s", "verdicts", "encoding", "max_heap_mb", "gc", "cpus");
        assertThat(json.get("replay_cpu_ns_per_sample").asDouble()).as(r.out()).isPositive();
        assertThat(json.get("raw_cpu_ns_per_sample").asDouble()).as(r.out()).isPositive();
        assertThat(json.get("rounds").size()).isEqualTo(2);
        for (JsonNode round : json.get("rounds")) {
            assertThat(round.get("replay_per_s").asLong()).as(r.out()).isPositive();
            assertThat(round.get("raw_consume_per_s").asLong()).as(r.out()).isPositive();
            // the replay's analysis thread ran; each side waited for its first batch
            assertThat(round.get("analysis_cpu_ns_per_sample").asDouble()).as(r.out()).isPositive();
            assertThat(round.get("raw_first_batch_ms").asDouble()).as(r.out()).isPositive();
            assertThat(round.get("replay_first_batch_ms").asDouble()).as(r.out()).isPositive();
            assertThat(round.get("replay_after_input_ms").asDouble()).as(r.out()).isGreaterThanOrEqualTo(0);
        }
        assertThat(r.err()).contains("warm-up (not counted)", "round 1: raw consume+decode",
                "round 2: raw consume+decode", "ms after the input's end");
        assertThat(json.get("samples").asLong()).isGreaterThanOrEqualTo(1_000);
        // the collector the figures were measured under (the test's JVM: whichever it runs with)
        assertThat(json.get("gc").asText()).isNotBlank();
        assertThat(json.get("replay_per_s").isIntegralNumber()).as(r.out()).isTrue();
        assertThat(json.get("replay_per_s").asLong()).isPositive();
        assertThat(r.out()).containsPattern("\"ratio\":\\d+\\.\\d{3},").containsPattern("\"publish_s\":\\d+\\.\\d,");
        assertThat(json.get("verdicts").asLong()).isPositive();
        assertThat(json.get("encoding").isTextual()).isTrue();
    }
}
