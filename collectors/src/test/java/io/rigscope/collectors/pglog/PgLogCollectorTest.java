package io.rigscope.collectors.pglog;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.collectors.Backoff;
import io.rigscope.collectors.CollectorContext;
import io.rigscope.localenv.postgres.PrivatePostgres;
import io.rigscope.localenv.testing.Postgres;
import io.rigscope.model.wire.Marker;
import io.rigscope.model.wire.PgLogEvent;
import io.rigscope.model.wire.WireRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.scheduler.Schedulers;

@Tag("it")
class PgLogCollectorTest {

    @RegisterExtension
    static final Postgres pg = new Postgres(PrivatePostgres.Options.defaults()
            .with("autovacuum_naptime", "1").with("autovacuum_vacuum_cost_delay", "0"));

    private PgLogCollector collector(boolean fromStart) {
        return new PgLogCollector(new PgLogCollector.Config(pg.cluster().logFile(), null, fromStart, Duration.ofMillis(50)),
                CollectorContext.of("s1"));
    }

    @Test
    void aCheckpointYieldsAParsedCheckpointCompleteEvent() {
        var collector = collector(false);
        var later = CompletableFuture.runAsync(() -> {
            sleep(500);
            pg.psql("postgres", "create table ck(x int); insert into ck select generate_series(1, 1000); checkpoint");
        });
        PgLogEvent done = collector.events().ofType(PgLogEvent.class)
                .filter(e -> e.kind() == PgLogEvent.Kind.CHECKPOINT_COMPLETE).next().block(Duration.ofSeconds(15));
        later.join();

        assertThat(done.metrics()).containsKeys("buffers_written", "wal_files_added", "write_s", "sync_s", "total_s",
                "distance_kb");
        assertThat(done.metrics().get("buffers_written")).isPositive();
        assertThat(done.pid()).isPositive();
        assertThat(done.ts()).isCloseTo(System.currentTimeMillis() * 1000, org.assertj.core.data.Offset.offset(10_000_000L));
    }

    @Test
    void anAutovacuumOfATableShowsUpWithItsPagesAndWal() {
        var collector = collector(false);
        var later = CompletableFuture.runAsync(() -> {
            sleep(300);
            pg.psql("postgres", "create table churn(id int, pad text); insert into churn select g, repeat('p', 100)"
                    + " from generate_series(1, 20000) g; delete from churn where id % 2 = 0");
        });
        PgLogEvent vacuum = collector.events().ofType(PgLogEvent.class)
                .filter(e -> e.kind() == PgLogEvent.Kind.AUTOVACUUM && "postgres.public.churn".equals(e.table()))
                .next().block(Duration.ofSeconds(30));
        later.join();

        assertThat(vacuum.metrics().get("tuples_removed")).isEqualTo(10000.0);
        assertThat(vacuum.metrics()).containsKeys("pages_scanned", "wal_records", "wal_fpi", "wal_bytes", "elapsed_s",
                "buffer_hits", "buffer_misses", "buffer_dirtied");
    }

    @Test
    void fromStartReadsWhatTheFileAlreadyHoldsAndErrorsAreEvents() {
        try {
            pg.psql("postgres", "select 1/0");
        } catch (IllegalStateException expected) {
            // psql fails: the server logged the ERROR
        }
        PgLogEvent error = collector(true).events().ofType(PgLogEvent.class)
                .filter(e -> e.kind() == PgLogEvent.Kind.ERROR).next().block(Duration.ofSeconds(10));
        assertThat(error.message()).isEqualTo("division by zero");
    }

    @Test
    void aMissingLogFileYieldsGapMarkersAndLinesAreReadOnceItAppears(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("postgresql.log");
        var collector = new PgLogCollector(new PgLogCollector.Config(log, null, false, Duration.ofMillis(20)),
                CollectorContext.of("s1"));
        var later = CompletableFuture.runAsync(() -> {
            sleep(300);
            try {
                Files.writeString(log, "2026-11-30 02:23:31.539 UTC [8420] LOG:  checkpoint starting: time\n");
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        List<WireRecord> out = collector.events(Schedulers.boundedElastic(), new Backoff(Duration.ofMillis(50),
                Duration.ofMillis(50))).takeUntil(r -> r instanceof PgLogEvent).collectList().block(Duration.ofSeconds(10));
        later.join();

        assertThat(out.get(0)).isInstanceOf(Marker.class);
        assertThat(((io.rigscope.model.wire.Gap) ((Marker) out.get(0)).body()).reason()).contains("postgresql.log");
        assertThat(out.get(out.size() - 1)).isInstanceOfSatisfying(PgLogEvent.class,
                e -> assertThat(e.kind()).isEqualTo(PgLogEvent.Kind.CHECKPOINT_START));
    }

    @Test
    void aRotatedFileIsReadFromItsStart(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("postgresql.log");
        Files.writeString(log, "old line 1\nold line 2\n");
        var tailer = new LogTailer(log, false);
        assertThat(tailer.poll()).isEmpty();
        Files.writeString(log, "old line 3\npartial", java.nio.file.StandardOpenOption.APPEND);
        assertThat(tailer.poll()).containsExactly("old line 3");
        Files.writeString(log, " done\n", java.nio.file.StandardOpenOption.APPEND);
        assertThat(tailer.poll()).containsExactly("partial done");
        Files.move(log, dir.resolve("postgresql.log.1"));
        Files.writeString(log, "new 1\n");
        assertThat(tailer.poll()).containsExactly("new 1");
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
