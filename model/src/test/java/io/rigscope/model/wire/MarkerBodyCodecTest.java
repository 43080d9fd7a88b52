package io.rigscope.model.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rigscope.model.codec.Decoded;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.model.topic.Topic;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every marker every writer publishes, typed: built as its writer builds it, it encodes to the bytes that writer's
 * plain map encoded to before markers were typed (the fixtures below, checked against the codec of 3117418), and
 * those bytes decode to the same body and encode back to themselves, in JSON and in Smile.
 */
class MarkerBodyCodecTest {

    private final WireCodec codec = new WireCodec();

    private static final String SCENARIO_FACTS = "{\"scenario\":\"ingest\",\"scheduled\":600000,\"sent\":600000,"
            + "\"dropped\":0,\"completed\":600000,\"failed\":3,\"errors\":{\"timeout\":3},\"lag_p50_ms\":0.034,"
            + "\"lag_p99_ms\":0.467,\"lag_max_ms\":5.9,\"first_send_epoch_us\":1700000000050021,"
            + "\"last_send_epoch_us\":1700000600049020}";
    private static final String IDLE_SCENARIO_FACTS = "{\"scenario\":\"probe\",\"scheduled\":0,\"sent\":0,"
            + "\"dropped\":0,\"completed\":0,\"failed\":0,\"errors\":{},\"lag_p50_ms\":\"NaN\",\"lag_p99_ms\":\"NaN\","
            + "\"lag_max_ms\":\"NaN\",\"first_send_epoch_us\":0,\"last_send_epoch_us\":0}";
    private static final String SCHEDULE_END = "\"mode\":\"open-loop\",\"series\":\"s-42\",\"rep\":3,\"src\":\"gen-1\","
            + "\"start_epoch_us\":1700000000050000,\"elapsed_ms\":600012,\"scenarios\":[" + SCENARIO_FACTS + ","
            + IDLE_SCENARIO_FACTS + "],\"process_cpu_pct\":57.3";
    private static final String STOPPED = "{\"by\":\"abortOnFail\",\"threshold\":\"http_req_duration: max<300\","
            + "\"value\":612.5,\"limit\":300.0,\"at_ms\":13000,\"delay_ms\":5000,\"scheduled_ms\":30000,"
            + "\"seconds_closed\":13}";
    private static final String K6_VERDICT = "{\"threshold\":\"http_req_duration: p(95)<500\",\"value\":212.5,"
            + "\"pass\":true,\"points\":1200}";

    private static String marker(String kind, String phase, int rep, String src, String data) {
        return "{\"run\":\"s-42\",\"rep\":" + rep + ",\"src\":\"" + src + "\",\"ts\":1700000600070000,\"kind\":\""
                + kind + "\",\"phase\":" + (phase == null ? "null" : "\"" + phase + "\"") + ",\"data\":" + data + "}";
    }

    private static Marker marker(int rep, String src, String phase, MarkerBody body) {
        return new Marker("s-42", rep, src, 1_700_000_600_070_000L, phase, body);
    }

    private static ScheduleEnd scheduleEnd() {
        return new ScheduleEnd("open-loop", "s-42", 3, "gen-1", 1_700_000_000_050_000L, 600_012L, List.of(
                new ScheduleEnd.ScenarioFacts("ingest", 600_000, 600_000, 0, 600_000, 3, Map.of("timeout", 3L),
                        0.034, 0.467, 5.9, 1_700_000_000_050_021L, 1_700_000_600_049_020L, null),
                new ScheduleEnd.ScenarioFacts("probe", 0, 0, 0, 0, 0, Map.of(), Double.NaN, Double.NaN, Double.NaN,
                        0, 0, null)), 57.3, null);
    }

    private static Map<String, Object> ordered(Object... pairs) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            m.put((String) pairs[i], pairs[i + 1]);
        }
        return m;
    }

    /** Built as the writer builds it: today's bytes; and those bytes read back to the same body and bytes. */
    private void sameBytes(Marker built, String fixture) {
        assertThat(new String(codec.encode(built), StandardCharsets.UTF_8)).isEqualTo(fixture);
        Marker decoded = decode(fixture.getBytes(StandardCharsets.UTF_8));
        assertThat(decoded.kind()).isEqualTo(built.kind());
        assertThat(new String(codec.encode(decoded), StandardCharsets.UTF_8)).isEqualTo(fixture);
        Marker fromSmile = decode(codec.encode(built, WireCodec.Format.SMILE));
        assertThat(new String(codec.encode(fromSmile), StandardCharsets.UTF_8)).isEqualTo(fixture);
        assertThat(fromSmile).isEqualTo(decoded);
    }

    private Marker decode(byte[] value) {
        Decoded d = codec.decode(Topic.MARKERS, "s-42", value, "test");
        assertThat(d).isInstanceOf(Decoded.Ok.class);
        return (Marker) ((Decoded.Ok) d).record();
    }

    @Test
    void theGeneratorsRepeatStartOfASharedScheduleKeepsItsBytes() {
        String fixture = marker("REPEAT_START", "sustained", 3, "gen-1", "{\"mode\":\"open-loop\","
                + "\"start_epoch_us\":1700000000050000,\"duration_ms\":600000,\"scenarios\":[\"ingest\",\"probe\"],"
                + "\"share\":\"1/2\",\"generators\":2}");
        ScheduleStart schedule = new ScheduleStart("open-loop", 1_700_000_000_050_000L, 600_000L,
                List.of("ingest", "probe"), "1/2", 2);
        sameBytes(marker(3, "gen-1", "sustained", schedule.body(Marker.Kind.REPEAT_START)), fixture);
        RepeatStart start = (RepeatStart) decode(fixture.getBytes(StandardCharsets.UTF_8)).body();
        assertThat(start.durationMs()).isEqualTo(600_000L);
        assertThat(start.startEpochUs()).isEqualTo(1_700_000_000_050_000L);
        assertThat(start.generators()).isEqualTo(2);
        assertThat(start.other()).isEmpty();
    }

    @Test
    void theGeneratorsSeriesAndPhaseStartsKeepTheirBytes() {
        ScheduleStart schedule = new ScheduleStart("closed-loop", 1_700_000_000_050_000L, 30_000L,
                List.of("ingest"), null, null);
        String data = "{\"mode\":\"closed-loop\",\"start_epoch_us\":1700000000050000,\"duration_ms\":30000,"
                + "\"scenarios\":[\"ingest\"]}";
        sameBytes(marker(0, "gen-1", "ceiling", schedule.body(Marker.Kind.SERIES_START)),
                marker("SERIES_START", "ceiling", 0, "gen-1", data));
        sameBytes(marker(0, "gen-1", "seed", schedule.body(Marker.Kind.PHASE_START)),
                marker("PHASE_START", "seed", 0, "gen-1", data));
    }

    @Test
    void theGeneratorsEndMarkersKeepTheirBytesNaNLagsAndStopIncluded() {
        String plain = marker("REPEAT_END", "sustained", 3, "gen-1", "{" + SCHEDULE_END + "}");
        sameBytes(marker(3, "gen-1", "sustained", scheduleEnd().body(Marker.Kind.REPEAT_END)), plain);
        String stopped = marker("REPEAT_END", "sustained", 3, "gen-1", "{" + SCHEDULE_END + ",\"stopped\":"
                + STOPPED + "}");
        VerdictFacts.Abort stop = new VerdictFacts.Abort("abortOnFail", "http_req_duration: max<300", 612.5, 300,
                13_000, 5_000, 30_000, 13);
        sameBytes(marker(3, "gen-1", "sustained", scheduleEnd().withStopped(stop).body(Marker.Kind.REPEAT_END)),
                stopped);
        RepeatEnd end = (RepeatEnd) decode(stopped.getBytes(StandardCharsets.UTF_8)).body();
        assertThat(end.stop()).isEqualTo(stop);
        assertThat(end.schedule().scenarios().get(1).lagP99Ms()).isNaN();
        sameBytes(marker(0, "gen-1", null, scheduleEnd().body(Marker.Kind.SERIES_END)),
                marker("SERIES_END", null, 0, "gen-1", "{" + SCHEDULE_END + "}"));
        sameBytes(marker(0, "gen-1", "seed", scheduleEnd().body(Marker.Kind.PHASE_END)),
                marker("PHASE_END", "seed", 0, "gen-1", "{" + SCHEDULE_END + "}"));
    }

    @Test
    void theOrchestratorsMarkersKeepTheirBytes() {
        sameBytes(marker(0, "rig", null, SeriesStart.ofSeries("s-42")),
                marker("SERIES_START", null, 0, "rig", "{\"series\":\"s-42\"}"));
        sameBytes(marker(0, "rig", null, SeriesEnd.ofRepeats(5)),
                marker("SERIES_END", null, 0, "rig", "{\"repeats\":5}"));
        sameBytes(marker(0, "rig", "denominator", PhaseStart.EMPTY),
                marker("PHASE_START", "denominator", 0, "rig", "{}"));
        String denominator = marker("PHASE_END", "denominator", 0, "rig", "{\"rows_per_s\":41234.5,\"tps\":4123.0,"
                + "\"batch\":10,\"clients\":8,\"failed_transactions\":0}");
        sameBytes(marker(0, "rig", "denominator", PhaseEnd.denominator(41_234.5, 4_123.0, 10, 8, 0)), denominator);
        assertThat(((PhaseEnd) decode(denominator.getBytes(StandardCharsets.UTF_8)).body()).rowsPerSec())
                .isEqualTo(41_234.5);
        sameBytes(new DatabaseGain("s-42", 3, "rig", 1_700_000_600_070_000L, "sustained", 5_998_800, 29_994_000)
                        .toMarker(),
                marker("RECONCILIATION", "sustained", 3, "rig", "{\"rows_written\":5998800,"
                        + "\"qty_sum_gained\":29994000}"));
    }

    @Test
    void theOrchestratorsConfigAndEnvironmentKeepTheirBytes() {
        Map<String, Object> analyzer = ordered("thresholds", ordered("http_req_duration", List.of("p(99)<500")),
                "probe_p99_ms", 500L);
        Map<String, Object> plan = ordered("target", "http://127.0.0.1:46751", "batch", 10L, "probe_per_s", 5.0);
        String config = marker("CONFIG", null, 0, "rig", "{\"thresholds\":{\"http_req_duration\":[\"p(99)<500\"]},"
                + "\"probe_p99_ms\":500,\"series_plan\":{\"target\":\"http://127.0.0.1:46751\",\"batch\":10,"
                + "\"probe_per_s\":5.0}}");
        sameBytes(marker(0, "rig", null, Config.ofSeries(analyzer, plan)), config);
        Config read = (Config) decode(config.getBytes(StandardCharsets.UTF_8)).body();
        assertThat(read.seriesTarget()).isEqualTo("http://127.0.0.1:46751");
        assertThat(read.thresholds()).containsOnlyKeys("http_req_duration");

        Map<String, String> pg = new LinkedHashMap<>();
        pg.put("shared_buffers", "256MB");
        pg.put("max_wal_size", "2GB");
        sameBytes(marker(0, "rig", null, Environment.of("vm", "AMD EPYC", 2, 25_276_510_208L,
                        new Environment.Disk("/var/lib/postgresql", "vda1", "ext4", 107_374_182_400L, null),
                        "15.18", pg, 0.384, Map.of("public.usage_events", 6_001_200L), "0.1.0-SNAPSHOT")),
                marker("ENVIRONMENT", null, 0, "rig", "{\"hostname\":\"vm\",\"cpu_model\":\"AMD EPYC\","
                        + "\"cpu_count\":2,\"mem_total_bytes\":25276510208,\"disk\":{\"path\":\"/var/lib/postgresql\","
                        + "\"device\":\"vda1\",\"type\":\"ext4\",\"total_bytes\":107374182400,\"rotational\":null},"
                        + "\"pg_version\":\"15.18\",\"pg_settings\":{\"shared_buffers\":\"256MB\","
                        + "\"max_wal_size\":\"2GB\"},\"cost_per_hour\":0.384,\"table_rows\":{"
                        + "\"public.usage_events\":6001200},\"rigscope_version\":\"0.1.0-SNAPSHOT\"}"));
    }

    @Test
    void anOlderEnvironmentKeepsItsOrderForTheReport() {
        String older = marker("ENVIRONMENT", null, 0, "rig", "{\"cpu_count\":2,\"cpu_model\":\"AMD EPYC\","
                + "\"mem_total_bytes\":25276510208,\"pg_version\":\"15.18\",\"hostname\":\"vm\"}");
        Marker m = decode(older.getBytes(StandardCharsets.UTF_8));
        assertThat(new String(codec.encode(m), StandardCharsets.UTF_8)).isEqualTo(older);
        assertThat(((Environment) m.body()).hostname()).isEqualTo("vm");
        assertThat(((Environment) m.body()).cpuCount()).isEqualTo(2L);
    }

    @Test
    void aCollectorsGapKeepsItsBytes() {
        String gap = marker("GAP", null, 1, "vmstat@app-1", "{\"start\":1700000000000000,\"end\":1700000003000000,"
                + "\"reason\":\"connection refused\",\"source\":\"vmstat@app-1\",\"topic\":\"rig.vmstat\","
                + "\"attempt\":2}");
        sameBytes(marker(1, "vmstat@app-1", null, new Gap(1_700_000_000_000_000L, 1_700_000_003_000_000L,
                "connection refused", "vmstat@app-1", "rig.vmstat", 2)), gap);
        Gap read = (Gap) decode(gap.getBytes(StandardCharsets.UTF_8)).body();
        assertThat(read.endUs()).isEqualTo(1_700_000_003_000_000L);
        assertThat(read.topic()).isEqualTo("rig.vmstat");
    }

    @Test
    void theK6ImportsMarkersKeepTheirBytes() {
        sameBytes(marker(0, "import-k6", "sustained", SeriesStart.imported("k6", null, "run.json")),
                marker("SERIES_START", "sustained", 0, "import-k6", "{\"source\":\"k6\",\"file\":\"run.json\"}"));
        sameBytes(marker(1, "import-k6", "sustained", RepeatStart.imported("k6", null, "run.json")),
                marker("REPEAT_START", "sustained", 1, "import-k6", "{\"source\":\"k6\",\"file\":\"run.json\"}"));
        sameBytes(marker(0, "import-k6", null, Config.imported("k6", false,
                        ordered("http_req_duration", List.of("p(99)<500")), null)),
                marker("CONFIG", null, 0, "import-k6", "{\"source\":\"k6\",\"reconciliation_required\":false,"
                        + "\"thresholds_all_scenarios\":true,\"thresholds\":{\"http_req_duration\":[\"p(99)<500\"]}}"));
        String end = marker("REPEAT_END", "sustained", 1, "import-k6", "{\"cut_short\":true,\"unreadable_lines\":2,"
                + "\"k6_thresholds\":[" + K6_VERDICT + "]}");
        K6Threshold verdict = new K6Threshold("http_req_duration: p(95)<500", 212.5, true, null, 1200L, false, null,
                null);
        sameBytes(marker(1, "import-k6", "sustained", RepeatEnd.imported(null, null, true, 2, List.of(verdict))),
                end);
        assertThat(((RepeatEnd) decode(end.getBytes(StandardCharsets.UTF_8)).body()).k6Thresholds())
                .containsExactly(verdict);
        // an element that is not one as rigscope writes it (a foreign key) keeps the whole list as it came
        String foreign = marker("REPEAT_END", "sustained", 1, "import-k6", "{\"k6_thresholds\":[{\"threshold\":"
                + "\"x\",\"value\":null,\"pass\":false,\"points\":0,\"note\":\"theirs\"}]}");
        RepeatEnd kept = (RepeatEnd) decode(foreign.getBytes(StandardCharsets.UTF_8)).body();
        assertThat(kept.k6Thresholds()).isNull();
        sameBytes(marker(1, "import-k6", "sustained", kept), foreign);
        sameBytes(marker(1, "import-k6", "sustained", RepeatEnd.imported(null, null, false, 0, List.of())),
                marker("REPEAT_END", "sustained", 1, "import-k6", "{}"));
        sameBytes(marker(0, "import-k6", null, SeriesEnd.EMPTY), marker("SERIES_END", null, 0, "import-k6", "{}"));
    }

    @Test
    void aStopNotAsRigscopeWritesItKeepsItsBytesAndSaysSoWhenRead() {
        // value as a whole number, an extra key in the middle: neither writes back as the typed stop would
        for (String stop : List.of(
                "{\"by\":\"abortOnFail\",\"threshold\":\"x\",\"value\":612,\"limit\":300.0}",
                "{\"by\":\"abortOnFail\",\"why\":\"manual\",\"threshold\":\"x\"}")) {
            String json = marker("REPEAT_END", "sustained", 3, "gen-1", "{" + SCHEDULE_END + ",\"stopped\":" + stop
                    + "}");
            Marker decoded = decode(json.getBytes(StandardCharsets.UTF_8));
            assertThat(new String(codec.encode(decoded), StandardCharsets.UTF_8)).isEqualTo(json);
            RepeatEnd end = (RepeatEnd) decoded.body();
            assertThat(end.schedule().stopped()).isNull();
            assertThatThrownBy(end::stop).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("REPEAT_END stopped is not an ABORT verdict's body as rigscope writes it")
                    .hasMessageContaining("was {by=abortOnFail,");
        }
        // one that writes back exactly reads typed, an unknown key at its end included
        String extra = "{\"by\":\"abortOnFail\",\"threshold\":\"x\",\"why\":\"manual\"}";
        RepeatEnd end = (RepeatEnd) decode(marker("REPEAT_END", "sustained", 3, "gen-1", "{\"stopped\":" + extra + "}")
                .getBytes(StandardCharsets.UTF_8)).body();
        assertThat(end.stop().threshold()).isEqualTo("x");
        assertThat(end.stop().value()).isNull();
        assertThat(end.stop().other()).containsEntry("why", "manual");
    }

    @Test
    void collectK6sMarkersKeepTheirBytes() {
        sameBytes(marker(0, "k6-1", "sustained", SeriesStart.imported("k6", "run.json", null)),
                marker("SERIES_START", "sustained", 0, "k6-1", "{\"source\":\"k6\",\"follow\":\"run.json\"}"));
        String start = marker("REPEAT_START", "sustained", 1, "k6-1", "{\"source\":\"k6\",\"follow\":\"run.json\","
                + "\"seconds_closed_by\":\"time\",\"lateness_ms\":2000}");
        sameBytes(marker(1, "k6-1", "sustained", RepeatStart.imported("k6", "run.json", null).closedByTime(2_000)),
                start);
        RepeatStart read = (RepeatStart) decode(start.getBytes(StandardCharsets.UTF_8)).body();
        assertThat(read.secondsClosedBy()).isEqualTo(RepeatStart.BY_TIME);
        assertThat(read.latenessMs()).isEqualTo(2_000L);
        Map<String, Long> published = new LinkedHashMap<>();
        published.put("default", 1_200L);
        published.put("probe", 0L);
        String end = marker("REPEAT_END", "sustained", 1, "k6-1", "{\"samples_by_scenario\":{\"default\":1200,"
                + "\"probe\":0},\"ended_by\":\"idle\",\"cut_short\":true,\"unreadable_lines\":1,\"k6_thresholds\":["
                + K6_VERDICT + "]}");
        K6Threshold verdict = new K6Threshold("http_req_duration: p(95)<500", 212.5, true, null, 1200L, false, null,
                null);
        sameBytes(marker(1, "k6-1", "sustained", RepeatEnd.imported(published, "idle", true, 1, List.of(verdict))),
                end);
        assertThat(((RepeatEnd) decode(end.getBytes(StandardCharsets.UTF_8)).body()).samplesByScenario())
                .isEqualTo(published);
    }

    @Test
    void rescansMarkersKeepTheirBytes() {
        sameBytes(marker(0, "rescan", "sustained", SeriesStart.imported("rescan", null, null)),
                marker("SERIES_START", "sustained", 0, "rescan", "{\"source\":\"rescan\"}"));
        sameBytes(marker(0, "rescan", null, Config.imported("rescan", true,
                        ordered("http_req_duration", List.of("p(99)<500")), ordered("min_samples", 100L))),
                marker("CONFIG", null, 0, "rescan", "{\"source\":\"rescan\",\"reconciliation_required\":true,"
                        + "\"thresholds_all_scenarios\":true,\"thresholds\":{\"http_req_duration\":[\"p(99)<500\"]},"
                        + "\"analyzer\":{\"min_samples\":100}}"));
        sameBytes(marker(2, "rescan", "sustained", RepeatStart.rescanned("rescan", 600_000, 1_200.0, 10,
                        List.of("ingest"))),
                marker("REPEAT_START", "sustained", 2, "rescan", "{\"source\":\"rescan\",\"duration_ms\":600000,"
                        + "\"offered_rate_per_s\":1200.0,\"batch\":10,\"scenarios\":[\"ingest\"]}"));
        sameBytes(marker(2, "rescan", "sustained", RepeatStart.rescanned("rescan", 600_000, null, null, List.of())),
                marker("REPEAT_START", "sustained", 2, "rescan", "{\"source\":\"rescan\",\"duration_ms\":600000}"));
        sameBytes(marker(2, "rescan", "sustained", RepeatEnd.imported(null, null, false, 0, List.of(
                        new K6Threshold("http_req_duration: p(95)<500", 212.5, true, null, 1200L, false, null,
                                null)))),
                marker("REPEAT_END", "sustained", 2, "rescan", "{\"k6_thresholds\":[" + K6_VERDICT + "]}"));
    }

    @Test
    void theBenchmarksSyntheticMarkersKeepTheirBytes() {
        sameBytes(marker(1, "orchestrator", "sustained", RepeatStart.ofDurationMs(60_000)),
                marker("REPEAT_START", "sustained", 1, "orchestrator", "{\"duration_ms\":60000}"));
        sameBytes(marker(1, "orchestrator", "sustained", RepeatStart.ofDurationSec(30, null)),
                marker("REPEAT_START", "sustained", 1, "orchestrator", "{\"duration_s\":30}"));
        sameBytes(marker(1, "orchestrator", "sustained", RepeatStart.ofDurationSec(30, 2)),
                marker("REPEAT_START", "sustained", 1, "orchestrator", "{\"duration_s\":30,\"generators\":2}"));
        sameBytes(marker(0, "orchestrator", "sustained", SeriesStart.EMPTY),
                marker("SERIES_START", "sustained", 0, "orchestrator", "{}"));
        sameBytes(marker(1, "orchestrator", "sustained", RepeatEnd.EMPTY),
                marker("REPEAT_END", "sustained", 1, "orchestrator", "{}"));
    }

    @Test
    void unknownKeysAreKeptAndWrittenBackAfterTheKnownOnes() {
        String newer = marker("REPEAT_START", "sustained", 1, "gen-9", "{\"duration_ms\":60000,"
                + "\"warmup_ms\":5000,\"labels\":{\"zone\":\"a\"}}");
        RepeatStart read = (RepeatStart) decode(newer.getBytes(StandardCharsets.UTF_8)).body();
        assertThat(read.durationMs()).isEqualTo(60_000L);
        assertThat(read.other()).containsOnlyKeys("warmup_ms", "labels");
        assertThat(new String(codec.encode(marker(1, "gen-9", "sustained", read)), StandardCharsets.UTF_8))
                .isEqualTo(newer);
    }

    @Test
    void aKnownKeyOfTheWrongTypeIsKeptAsItCameAndItsFieldIsNull() {
        String odd = marker("RECONCILIATION", "sustained", 3, "rig", "{\"rows_written\":\"many\","
                + "\"qty_sum_gained\":29994000}");
        Marker m = decode(odd.getBytes(StandardCharsets.UTF_8));
        Reconciliation r = (Reconciliation) m.body();
        assertThat(r.rowsWritten()).isNull();
        assertThat(r.qtySumGained()).isEqualTo(29_994_000L);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> DatabaseGain.of(m))
                .hasMessageContaining("rows_written is not a whole number: many");
        assertThat(new String(codec.encode(m), StandardCharsets.UTF_8)).contains("\"rows_written\":\"many\"");
    }

    @Test
    void aMarkerWithoutKindIsADeadLetter() {
        String noKind = "{\"run\":\"s-42\",\"rep\":0,\"src\":\"rig\",\"ts\":1,\"phase\":null,\"data\":{}}";
        Decoded d = codec.decode(Topic.MARKERS, "s-42", noKind.getBytes(StandardCharsets.UTF_8), "test");
        assertThat(d).isInstanceOf(Decoded.Failed.class);
        assertThat(((Decoded.Failed) d).deadLetter().reason()).contains("kind is missing");
    }
}
