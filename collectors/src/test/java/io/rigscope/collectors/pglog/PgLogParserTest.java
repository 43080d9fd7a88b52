package io.rigscope.collectors.pglog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.rigscope.collectors.CollectorContext;
import io.rigscope.model.wire.PgLogEvent;
import io.rigscope.model.wire.PgLogEvent.Kind;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class PgLogParserTest {

    private static final CollectorContext CTX = CollectorContext.of("s1");

    static List<PgLogEvent> parse(String fixture, String prefix) throws IOException {
        PgLogParser parser = new PgLogParser(LogLinePrefix.of(prefix, null), CTX, "pglog@test");
        List<PgLogEvent> events = new ArrayList<>();
        for (String line : lines(fixture)) {
            events.addAll(parser.accept(line));
        }
        events.addAll(parser.flush());
        return events;
    }

    static List<String> lines(String fixture) throws IOException {
        try (InputStream in = PgLogParserTest.class.getResourceAsStream("/pglog/" + fixture)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().filter(l -> !l.startsWith("# ")).toList();
        }
    }

    private static List<PgLogEvent> ofKind(List<PgLogEvent> events, Kind kind) {
        return events.stream().filter(e -> e.kind() == kind).toList();
    }

    @Test
    void realPg15LinesYieldEveryAutovacuumAnalyzeCheckpointAndError() throws IOException {
        List<PgLogEvent> events = parse("pg15-real.log", LogLinePrefix.DEFAULT);

        assertThat(ofKind(events, Kind.RAW)).isEmpty();
        assertThat(ofKind(events, Kind.AUTOVACUUM)).hasSize(4);
        assertThat(ofKind(events, Kind.AUTOANALYZE)).hasSize(12);
        assertThat(ofKind(events, Kind.CHECKPOINT_START)).hasSize(2);
        assertThat(ofKind(events, Kind.CHECKPOINT_COMPLETE)).hasSize(2);
        assertThat(ofKind(events, Kind.ERROR)).singleElement()
                .satisfies(e -> assertThat(e.message()).isEqualTo("division by zero"));
        assertThat(ofKind(events, Kind.FATAL)).singleElement()
                .satisfies(e -> assertThat(e.message()).isEqualTo("database \"nosuchdb\" does not exist"));

        PgLogEvent vacuum = ofKind(events, Kind.AUTOVACUUM).get(0);
        assertThat(vacuum.table()).isEqualTo("postgres.public.t");
        assertThat(vacuum.pid()).isEqualTo(8440);
        assertThat(vacuum.ts()).isEqualTo(java.time.Instant.parse("2026-11-30T02:23:28.369Z").toEpochMilli() * 1000);
        assertThat(vacuum.metrics()).containsEntry("index_scans", 1.0).containsEntry("pages_removed", 0.0)
                .containsEntry("pages_scanned", 133.0).containsEntry("tuples_removed", 16666.0)
                .containsEntry("buffer_hits", 559.0).containsEntry("buffer_misses", 2.0)
                .containsEntry("buffer_dirtied", 4.0).containsEntry("wal_records", 510.0)
                .containsEntry("wal_fpi", 1.0).containsEntry("wal_bytes", 141048.0)
                .containsEntry("avg_write_mb_per_sec", 2.240).containsEntry("elapsed_s", 0.01);

        PgLogEvent start = ofKind(events, Kind.CHECKPOINT_START).get(0);
        assertThat(start.metrics()).containsOnlyKeys("flag_immediate", "flag_force", "flag_wait");
        PgLogEvent done = ofKind(events, Kind.CHECKPOINT_COMPLETE).get(0);
        assertThat(done.metrics()).containsEntry("buffers_written", 330.0).containsEntry("wal_files_added", 0.0)
                .containsEntry("write_s", 0.003).containsEntry("sync_s", 0.006).containsEntry("total_s", 0.012)
                .containsEntry("sync_files", 50.0).containsEntry("distance_kb", 5620.0);
    }

    @Test
    void pg16AddsFrozenPagesAndCheckpointLsnWithoutBreakingTheOtherFacts() throws IOException {
        List<PgLogEvent> events = parse("pg16-doc.log", LogLinePrefix.DEFAULT);

        assertThat(ofKind(events, Kind.RAW)).isEmpty();
        PgLogEvent vacuum = ofKind(events, Kind.AUTOVACUUM).get(0);
        assertThat(vacuum.table()).isEqualTo("ingest.public.usage_events");
        assertThat(vacuum.metrics()).containsEntry("pages_frozen", 73530.0).containsEntry("tuples_frozen", 6000000.0)
                .containsEntry("wal_fpi", 73530.0).containsEntry("wal_bytes", 1150832916.0)
                .containsEntry("elapsed_s", 1.40);
        assertThat(ofKind(events, Kind.CHECKPOINT_COMPLETE).get(0).metrics())
                .containsEntry("wal_files_removed", 1.0).containsEntry("wal_files_recycled", 2.0)
                .containsEntry("total_s", 27.341);
        assertThat(ofKind(events, Kind.AUTOANALYZE)).singleElement()
                .satisfies(e -> assertThat(e.metrics()).containsEntry("buffer_misses", 410.0));
        assertThat(ofKind(events, Kind.ERROR)).singleElement().satisfies(e -> {
            assertThat(e.message()).isEqualTo("canceling statement due to lock timeout");
            assertThat(e.pid()).isEqualTo(2299);
        });
    }

    @Test
    void pg17WraparoundVacuumIsAnAutovacuumOfItsTable() throws IOException {
        List<PgLogEvent> events = parse("pg17-doc.log", LogLinePrefix.DEFAULT);

        assertThat(ofKind(events, Kind.AUTOVACUUM)).singleElement().satisfies(e -> {
            assertThat(e.table()).isEqualTo("ingest.public.api_keys");
            assertThat(e.metrics()).containsEntry("pages_removed", 2.0).containsEntry("dead_item_identifiers", 5120.0)
                    .containsEntry("buffer_misses", 40.0);
        });
        assertThat(ofKind(events, Kind.CHECKPOINT_START).get(0).metrics()).containsOnlyKeys("flag_wal");
        assertThat(ofKind(events, Kind.CHECKPOINT_COMPLETE).get(0).metrics()).containsEntry("wal_files_added", 3.0);
        assertThat(ofKind(events, Kind.FATAL)).hasSize(1);
    }

    @Test
    void pg18ReadsCountAsMissesAndItsExtraFactsAreKept() throws IOException {
        List<PgLogEvent> events = parse("pg18-doc.log", LogLinePrefix.DEFAULT);

        PgLogEvent vacuum = ofKind(events, Kind.AUTOVACUUM).get(0);
        assertThat(vacuum.metrics()).containsEntry("buffer_misses", 210.0).containsEntry("pages_eagerly_scanned", 1500.0)
                .containsEntry("pages_set_all_frozen", 59000.0).containsEntry("wal_buffers_full", 1200.0)
                .containsEntry("wal_bytes", 486539264.0).containsEntry("pages_scanned", 60000.0);
        assertThat(ofKind(events, Kind.AUTOANALYZE).get(0).metrics()).containsEntry("buffer_misses", 600.0)
                .containsEntry("wal_records", 12.0);
        assertThat(ofKind(events, Kind.CHECKPOINT_COMPLETE).get(0).metrics()).containsEntry("buffers_written", 4096.0)
                .containsEntry("slru_buffers_written", 3.0).containsEntry("wal_files_removed", 2.0);
        assertThat(ofKind(events, Kind.PANIC)).hasSize(1);
    }

    @Test
    void rdsPrefixGivesTimeAndPidAndAttachesDetailAndStatementToTheError() throws IOException {
        List<PgLogEvent> events = parse("rds-doc.log", LogLinePrefix.RDS);

        assertThat(ofKind(events, Kind.RAW)).isEmpty();
        assertThat(events).extracting(PgLogEvent::kind).containsExactly(Kind.CHECKPOINT_START,
                Kind.CHECKPOINT_COMPLETE, Kind.AUTOVACUUM, Kind.ERROR);
        PgLogEvent start = events.get(0);
        assertThat(start.pid()).isEqualTo(512);
        assertThat(start.ts()).isEqualTo(java.time.Instant.parse("2026-11-30T06:00:00Z").toEpochMilli() * 1000);
        assertThat(events.get(2).metrics()).containsEntry("wal_fpi", 249999.0).containsEntry("elapsed_s", 20.54);
        assertThat(events.get(3).pid()).isEqualTo(9012);
    }

    @Test
    void linesOfAnotherPrefixAreKeptAsRawEventsAndCounted() throws IOException {
        PgLogParser parser = new PgLogParser(LogLinePrefix.defaults(), CTX, "pglog@test");
        List<PgLogEvent> events = new ArrayList<>();
        for (String line : lines("rds-doc.log")) {
            events.addAll(parser.accept(line));
        }
        events.addAll(parser.flush());

        assertThat(events).isNotEmpty().allSatisfy(e -> assertThat(e.kind()).isEqualTo(Kind.RAW));
        assertThat(parser.counts().raw()).isEqualTo(events.size());
        assertThat(events.get(0).message()).isEqualTo("2026-11-30 06:00:00 UTC::@:[512]:LOG:  checkpoint starting: time");
    }

    @Test
    void garbageNeverThrowsAndEveryUnparseableLineIsCounted() {
        PgLogParser parser = new PgLogParser(LogLinePrefix.defaults(), CTX, "pglog@test");
        Random random = new Random(42);
        List<String> garbage = new ArrayList<>(List.of("", "\t", "\tbuffer usage: x hits", "LOG:  checkpoint complete:",
                "2026-13-45 99:99:99.999 UTC [x] LOG:  automatic vacuum of table \"",
                "2026-11-30 02:23:31.551 UTC [99999999999999999999] LOG:  checkpoint complete: wrote 9999999999999999999999 buffers",
                "2026-11-30 02:23:31.551 XYZ/ABC [1] ERROR:  odd zone", "\u0000\u0001\uFFFD", "%m [%p] "));
        for (int i = 0; i < 2000; i++) {
            char[] chars = new char[random.nextInt(200)];
            for (int k = 0; k < chars.length; k++) {
                chars[k] = (char) random.nextInt(random.nextBoolean() ? 128 : 0xD7FF);
            }
            garbage.add(new String(chars));
        }
        List<PgLogEvent> events = new ArrayList<>();
        assertThatCode(() -> {
            for (String line : garbage) {
                events.addAll(parser.accept(line));
            }
            events.addAll(parser.flush());
        }).doesNotThrowAnyException();

        PgLogParser.Counts counts = parser.counts();
        assertThat(counts.lines()).isEqualTo(garbage.size());
        assertThat(counts.raw()).isGreaterThan(1900);
        assertThat(ofKind(events, Kind.RAW)).hasSize((int) counts.raw());
        assertThat(events).filteredOn(e -> e.kind() == Kind.CHECKPOINT_COMPLETE).singleElement()
                .satisfies(e -> assertThat(e.pid()).isNull());
    }
}
