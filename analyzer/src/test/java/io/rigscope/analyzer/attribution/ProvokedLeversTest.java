package io.rigscope.analyzer.attribution;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rigscope.analyzer.api.Analyzer;
import io.rigscope.analyzer.decision.Decision;
import io.rigscope.analyzer.decision.Cause;
import io.rigscope.analyzer.decision.Episode;
import io.rigscope.analyzer.decision.Lever;
import io.rigscope.analyzer.pipeline.AnalyzerInput;
import io.rigscope.analyzer.decision.SeriesReport;
import io.rigscope.analyzer.testing.ProvokedRecordings;
import io.rigscope.model.codec.WireCodec;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The levers of the real provocations (src/test/resources/provoked): each replayed episode's lever is the value its
 * rule (docs/attribution.md, Levers) gives from that recording's own records, computed here again from the wire file
 * with nothing of the analyzer's.
 */
class ProvokedLeversTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void theWalPoolsLeverIsOneCheckpointCycleOfTheMeasuredWalInWholeSegments() throws IOException {
        SeriesReport report = ProvokedRecordings.replay(dir, "wal-pool", "cal-wal-pool-20261130-193420");
        List<Episode> walPool = report.episodes().stream().filter(e -> e.cause() == Cause.WAL_POOL).toList();
        assertThat(walPool).isNotEmpty();
        // by hand from the wire file: rig.db pg_stat_wal bytes and intervals of repeat 2's seconds of load,
        // x checkpoint_timeout 5min (no checkpoint logged), rounded up to 256 MB segments
        long[] span = repeatSpan(2);
        double bytes = 0;
        double ms = 0;
        JsonNode first = null;
        JsonNode last = null;
        for (JsonNode r : records("wal-pool", "rig.db")) {
            long sec = Math.floorDiv(r.get("ts").asLong(), 1_000_000L);
            if (sec >= span[0] && sec < span[1]) {
                first = first == null ? r : first;
                last = r;
                if (r.get("intervalMs").asLong() > 0) {
                    bytes += r.at("/wal/bytes").asLong();
                    ms += r.get("intervalMs").asLong();
                }
            }
        }
        double statRate = bytes / (ms / 1000);
        // the WAL directory: 1 -> 9 files of 256 MB between the first and the last reading
        double dirRate = (last.at("/walDir/bytes").asDouble() - first.at("/walDir/bytes").asDouble())
                / ((last.get("ts").asLong() - first.get("ts").asLong()) / 1e6);
        assertThat(dirRate).isGreaterThan(statRate);
        long segments = (long) Math.ceil(Math.max(statRate, dirRate) * 300 / (256.0 * 1_048_576));
        assertThat(segments).isEqualTo(60);
        for (Episode e : walPool) {
            Lever l = e.lever();
            assertThat(l.setting()).isEqualTo("min_wal_size");
            assertThat(l.value()).isEqualTo((segments * 256 / 1024) + "GB").isEqualTo("15GB");
            assertThat(l.why()).contains("x checkpoint cycle 300 s (checkpoint_timeout 5min",
                    "the WAL directory grew 2,048 MB (1 -> 9 files)", "60 x 256MB = 15GB", "min_wal_size 512MB", "WAL files at the repeat's start: 1",
                    "wal_recycle and wal_init_zero are not in this series' environment");
        }
    }

    /**
     * The wal-pool recipe ran {@code wal_recycle=off} and {@code wal_init_zero=on} (docs/calibrate.md), which the
     * recording's ENVIRONMENT predates; with them written into its marker, as a recording made now carries them, the
     * lever is recycling, the pool's size beside it.
     */
    @Test
    void withTheRecipesWalRecycleOffRecordedTheLeverIsWalRecycleOnWithThePoolsSizeBesideIt() throws IOException {
        Path file = dir.resolve("wal-pool-recycle-off.jsonl");
        try (BufferedReader in = new BufferedReader(new InputStreamReader(new GZIPInputStream(Objects.requireNonNull(
                getClass().getResourceAsStream("/provoked/wal-pool.jsonl.gz"))), StandardCharsets.UTF_8));
             var out = Files.newBufferedWriter(file)) {
            String line;
            while ((line = in.readLine()) != null) {
                if (line.contains("\"kind\":\"ENVIRONMENT\"")) {
                    line = line.replace("\"max_connections\":\"200\"",
                            "\"max_connections\":\"200\",\"wal_recycle\":\"off\",\"wal_init_zero\":\"on\"");
                }
                out.write(line);
                out.newLine();
            }
        }
        Decision last = Analyzer.forSeries("cal-wal-pool-20261130-193420").replay(AnalyzerInput.fromWireFile(file,
                new WireCodec(), f -> {
                    throw new AssertionError(f.deadLetter().reason());
                })).blockLast(Duration.ofSeconds(60));
        List<Episode> walPool = ((Decision.Series) last).report().episodes().stream()
                .filter(e -> e.cause() == Cause.WAL_POOL).toList();
        assertThat(walPool).isNotEmpty().allSatisfy(e -> {
            assertThat(e.lever().setting()).isEqualTo("wal_recycle");
            assertThat(e.lever().value()).isEqualTo("on");
            assertThat(e.lever().also()).containsExactly(new Lever.Also("min_wal_size", "15GB"));
            assertThat(e.lever().why()).contains("wal_init_zero=on: a created segment is first written full of zeros",
                    "wal_recycle=off: a finished segment is removed, never renamed for reuse");
        });
    }

    /**
     * The gp3 storm is the table's first pass after its load: 327,559 full-page images where the factor in force
     * (0.2) makes a pass of about 65,000 pages. No scale factor makes it smaller; the pass's lever is the cost limit
     * that holds its device writes (its WAL and its own page writes) to half of what the committers leave. But the
     * commits froze while the kernel wrote back the pass's dirty pages in one burst (several seconds of the capped
     * device): the episode's lever is backend_flush_after, the device's writes in 10 ms, with the pass's lever in
     * {@code also}.
     */
    @Test
    void theGp3StormsWriteBackBurstGetsBackendFlushAfterWithTheCostLimitBesideIt() throws IOException {
        SeriesReport report = ProvokedRecordings.replay(dir, "vacuum-storm-gp3", "cal-vacuum-storm-20261130-224418");
        Episode storm = report.episodes().stream().filter(e -> e.cause() == Cause.VACUUM_STORM)
                .max(Comparator.comparingInt(Episode::freezeSeconds)).orElseThrow();
        // by hand: the autovacuum's log line, and the busiest device's write KB/s in the rig.os records
        JsonNode pass = records("vacuum-storm-gp3", "rig.pglog").stream()
                .filter(r -> "AUTOVACUUM".equals(r.get("kind").asText()) && r.at("/metrics/wal_fpi").asDouble() > 0)
                .max(Comparator.comparingDouble(r -> r.at("/metrics/wal_fpi").asDouble())).orElseThrow();
        double walPerPage = pass.at("/metrics/wal_bytes").asDouble() / pass.at("/metrics/wal_fpi").asDouble();
        double scanned = pass.at("/metrics/pages_scanned").asDouble();
        double elapsed = pass.at("/metrics/elapsed_s").asDouble();
        double writePerPage = pass.at("/metrics/avg_write_mb_per_sec").asDouble() * 1_048_576 * elapsed / scanned;
        double cost = (pass.at("/metrics/buffer_hits").asDouble() + 2 * pass.at("/metrics/buffer_misses").asDouble()
                + 20 * pass.at("/metrics/buffer_dirtied").asDouble()) / scanned;
        double rows = pass.at("/metrics/tuples_remain").asDouble();
        double rowsPerPage = rows / pass.at("/metrics/pages_remain").asDouble();
        // the seconds both the pass (its log line's time less its elapsed_s) and the episode cover
        long passStart = Math.floorDiv(pass.get("ts").asLong() - Math.round(elapsed * 1e6), 1_000_000L);
        long passEnd = Math.floorDiv(pass.get("ts").asLong(), 1_000_000L) + 1;
        long from = Math.max(storm.startSec(), passStart);
        long to = Math.min(storm.endSec(), passEnd);
        List<Double> kb = new ArrayList<>();
        List<Double> before = new ArrayList<>();
        long writebackKb = 0;
        for (JsonNode r : records("vacuum-storm-gp3", "rig.os")) {
            long sec = Math.floorDiv(r.get("ts").asLong(), 1_000_000L);
            // while the pass ran or over the episode, within rig.os's tolerance (2 s at 1-s records)
            if (sec >= Math.min(passStart, storm.startSec()) - 2 && sec < Math.max(passEnd, storm.endSec()) + 2) {
                writebackKb = Math.max(writebackKb, r.at("/memory/writeback").asLong());
            }
            double max = 0;
            for (JsonNode d : r.get("diskIO")) {
                max = Math.max(max, d.get("writeKbPS").asDouble());
            }
            if (sec >= from && sec < to) {
                kb.add(max);
            }
            if (sec >= passStart - 10 && sec < passStart) {
                before.add(max);
            }
        }
        assertThat(before).isNotEmpty();
        double device = median(kb) * 1024;
        double committers = median(before) * 1024;
        double perPage = walPerPage + writePerPage;
        double factor = (device / perPage * rowsPerPage - 1000) / rows;
        long limit = (long) Math.floor((device - committers) / 2 / perPage * cost * 0.002);
        // the write-back: seconds of the device, so the burst is the lever; the device's writes in 10 ms
        double holdSec = writebackKb * 1024.0 / device;
        assertThat(holdSec).isGreaterThan(1.0);
        long pages = Math.min(256, (long) Math.floor(device * 0.010 / 8192));
        Lever l = storm.lever();
        assertThat(l.setting()).isEqualTo("backend_flush_after");
        assertThat(l.value()).isEqualTo((pages * 8) + "kB");
        assertThat(l.also()).containsExactly(new Lever.Also("autovacuum_vacuum_cost_limit", Long.toString(limit)),
                new Lever.Also("autovacuum_vacuum_cost_delay", "2ms"),
                new Lever.Also("autovacuum_vacuum_insert_scale_factor", Levers.twoDigitsDown(factor)));
        assertThat(l.why()).contains("327,559 full-page images", "4,027,873 rows in 327,507 pages",
                "at autovacuum_vacuum_insert_scale_factor 0.2 a pass dirties",
                "the table's first pass since its pages were loaded", "the pass may take half of what they leave",
                "up to " + String.format(java.util.Locale.ROOT, "%,.0f", writebackKb / 1024.0) + " MB of the page "
                        + "cache under write-back", "backend_flush_after not in the environment",
                "= backend_flush_after " + (pages * 8) + "kB");
        // about twice the bytes a page the old rule counted (WAL only), so well under its half-the-device limit
        assertThat(writePerPage).isBetween(7_000.0, 9_000.0);
        assertThat(limit).isLessThan((long) Math.floor(device / 2 / walPerPage * 20 * 0.002));
    }

    @Test
    void theHotRowsLeverNamesTheRelationWhoseRowsWereUpdatedOverAndOver() throws IOException {
        SeriesReport report = ProvokedRecordings.replay(dir, "hot-row", "cal-hot-row-20261130-193347");
        Episode wall = report.episodes().stream().filter(e -> e.cause() == Cause.LOCK_CONTENTION)
                .max(Comparator.comparingInt(Episode::freezeSeconds)).orElseThrow();
        long dead = 0;
        for (JsonNode r : records("hot-row", "rig.db")) {
            long sec = Math.floorDiv(r.get("ts").asLong(), 1_000_000L);
            if (sec >= wall.startSec() - 2 && sec < wall.endSec() + 2) {
                for (JsonNode t : r.get("tables")) {
                    if (t.get("table").asText().equals("public.api_keys")) {
                        dead = Math.max(dead, t.get("nDeadTup").asLong());
                    }
                }
            }
        }
        Lever l = wall.lever();
        assertThat(l.setting()).isNull();
        assertThat(l.value()).isEqualTo("public.api_keys");
        assertThat(l.action()).startsWith("take the UPDATE of public.api_keys's 1 row(s) out of the requests' "
                + "transaction");
        assertThat(l.why()).contains("up to " + String.format(java.util.Locale.ROOT, "%,d", dead)
                + " dead row versions for up to 1 live row(s)", "the statement itself was not measured");
    }

    @Test
    void theParkedGeneratorOnAnOversubscribedHostGetsAHostOfItsOwn() throws IOException {
        SeriesReport report = ProvokedRecordings.replay(dir, "generator-pause", "cal-generator-pause-20261130-194447");
        Episode parked = report.episodes().stream().filter(e -> e.cause() == Cause.GENERATOR && e.rep() == 2)
                .findFirst().orElseThrow();
        long r = 0;
        for (JsonNode v : records("generator-pause", "rig.vmstat")) {
            long sec = Math.floorDiv(v.get("ts").asLong(), 1_000_000L);
            if (sec >= parked.startSec() - 2 && sec < parked.endSec() + 2) {
                r = Math.max(r, v.get("r").asLong());
            }
        }
        assertThat(r).isGreaterThan(2);
        assertThat(parked.lever().action()).isEqualTo("run the generator on a host of its own");
        assertThat(parked.lever().why()).contains("run queue up to " + r + " on 2 CPU(s)");
    }

    @Test
    void anUnattributedEpisodeHasNoLeverAndAStormWithoutItsLogLineSaysWhatWasNotMeasured() throws IOException {
        SeriesReport report = ProvokedRecordings.replay(dir, "vacuum-storm-gp3", "cal-vacuum-storm-20261130-224418");
        assertThat(report.episodes()).filteredOn(e -> e.cause() == Cause.UNATTRIBUTED)
                .allSatisfy(e -> assertThat(e.lever()).isNull());
        SeriesReport blind = ProvokedRecordings.replay(dir, "vacuum-storm", "cal-vacuum-storm-20261130-193946");
        assertThat(blind.episodes()).filteredOn(e -> e.cause() == Cause.VACUUM_STORM).allSatisfy(e -> {
            assertThat(e.lever()).isNotNull();
            if (!e.lever().computed()) {
                assertThat(e.lever().why()).contains("not measured");
            }
        });
    }

    private static double median(List<Double> values) {
        double[] v = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    /**
     * The repeat's span from its markers: the second of REPEAT_START's {@code start_epoch_us} to the second after
     * REPEAT_END (the analyzer cuts the same repeat by its samples' seconds, the same seconds here).
     */
    private long[] repeatSpan(int rep) throws IOException {
        long from = -1;
        long to = -1;
        for (JsonNode m : records("wal-pool", "rig.markers")) {
            if (m.get("rep").asInt() == rep && "REPEAT_START".equals(m.get("kind").asText())) {
                from = Math.floorDiv(m.at("/data/start_epoch_us").asLong(), 1_000_000L);
            }
            if (m.get("rep").asInt() == rep && "REPEAT_END".equals(m.get("kind").asText())) {
                to = Math.floorDiv(m.get("ts").asLong(), 1_000_000L) + 1;
            }
        }
        return new long[] {from, to};
    }

    private List<JsonNode> records(String name, String topic) throws IOException {
        List<JsonNode> out = new ArrayList<>();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(new GZIPInputStream(Objects.requireNonNull(
                getClass().getResourceAsStream("/provoked/" + name + ".jsonl.gz"))), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                JsonNode n = JSON.readTree(line);
                if (topic.equals(n.get("topic").asText())) {
                    out.add(n.get("value"));
                }
            }
        }
        return out;
    }
}
