package io.rigscope.collectors;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.collectors.db.DbSampler;
import io.rigscope.collectors.pglog.PgLogCollector;
import io.rigscope.collectors.waits.WaitsCollector;
import io.rigscope.localenv.postgres.PrivatePostgres;
import io.rigscope.model.wire.DbSample;
import io.rigscope.model.wire.PgLogEvent;
import io.rigscope.model.wire.Waits;
import io.rigscope.pg.PgUrl;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The database collectors, live, on every PostgreSQL major that zonky's embedded binaries provide from Maven Central
 * (14 to 18; the build copies one binaries jar per major into {@code target/postgres-majors}): the DB sampler reads
 * every part of its sample (the catalog views moved between majors: pg_stat_checkpointer from 17, pg_stat_io from
 * 16), the wait collector sees a row lock, and the log collector parses a checkpoint and an autovacuum.
 */
@Tag("it")
class PostgresMajorsTest {

    private static final Pattern VERSION = Pattern.compile("-(\\d+)\\.(\\d+)\\.(\\d+)\\.jar$");

    static Stream<Path> binaries() throws IOException {
        String dir = System.getProperty("rigscope.postgres.majors");
        if (dir == null || !Files.isDirectory(Path.of(dir))) {
            throw new IllegalStateException("no binaries directory (system property rigscope.postgres.majors = " + dir
                    + "): run through Maven, which copies them in process-test-resources");
        }
        try (Stream<Path> jars = Files.list(Path.of(dir))) {
            return jars.filter(p -> VERSION.matcher(p.getFileName().toString()).find())
                    .sorted().toList().stream();
        }
    }

    private static int major(Path jar) {
        Matcher m = VERSION.matcher(jar.getFileName().toString());
        if (!m.find()) {
            throw new IllegalArgumentException(jar.toString());
        }
        return Integer.parseInt(m.group(1));
    }

    @Test
    void theBuildProvidesMajorsFourteenToEighteen() throws IOException {
        assertThat(binaries().map(PostgresMajorsTest::major)).containsExactlyInAnyOrder(14, 15, 16, 17, 18);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("binaries")
    void theDatabaseCollectorsReadEveryMajor(Path jar) throws Exception {
        int major = major(jar);
        try (var pg = PrivatePostgres.startTemporary(PrivatePostgres.Options.defaults().withEmbeddedBinaries(jar)
                .with("autovacuum_naptime", "1").with("autovacuum_vacuum_cost_delay", "0"))) {
            assertThat(pg.majorVersion()).isEqualTo(major);
            pg.psql("postgres", "create role monitor login; grant pg_monitor to monitor;"
                    + " create table api_keys(id int primary key, last_used_at timestamptz);"
                    + " insert into api_keys values (1, now()); create table churn(id int, pad text)");
            PgUrl monitor = PgUrl.parse("test", pg.libpqUrl("postgres", "monitor"));
            checkCollectors(new LiveDatabase(sql -> pg.psql("postgres", sql), pg.logFile()), monitor, major);
        }
    }

    /**
     * A database the checks below run on: SQL as its superuser (several statements allowed, one implicit
     * transaction), and the file its server log goes to.
     */
    record LiveDatabase(java.util.function.Consumer<String> sql, Path logFile) {
        void run(String statement) {
            sql.accept(statement);
        }
    }

    /** The three checks on a database with a {@code monitor} role (pg_monitor), {@code api_keys} and {@code churn}. */
    static void checkCollectors(LiveDatabase db, PgUrl monitor, int major) throws Exception {
        sampler(db, monitor, major);
        waits(db, monitor);
        log(db, major);
    }

    /** Every part of a DB sample, read as a role with pg_monitor alone, after an insert burst. */
    private static void sampler(LiveDatabase pg, PgUrl monitor, int major) throws Exception {
        var sampler = new DbSampler(new DbSampler.Config(monitor, List.of("churn"), Duration.ofMillis(250)),
                CollectorContext.of("majors"));
        // the insert only once the sampler has its first sample (its baseline): WAL is counted as deltas from it
        // the commit counters come from the cumulative statistics, which a backend flushes up to a second after
        // its commit (15 and later) while WAL positions are read live: the commit may show in a later sample
        var first = new CompletableFuture<Void>();
        var burst = new CompletableFuture<DbSample>();
        var committed = new CompletableFuture<DbSample>();
        var sub = sampler.records().ofType(DbSample.class).subscribe(x -> {
            first.complete(null);
            if (x.wal() != null && x.wal().bytes() > 1_000_000) {
                burst.complete(x);
            }
            if (burst.isDone() && x.database() != null && x.database().commits() > 0) {
                committed.complete(x);
            }
        });
        DbSample s;
        try {
            first.get(30, TimeUnit.SECONDS);
            pg.run("insert into churn select g, repeat('p', 100) from generate_series(1, 50000) g");
            s = burst.get(30, TimeUnit.SECONDS);
            assertThat(committed.get(30, TimeUnit.SECONDS).database().commits()).isPositive();
        } finally {
            sub.dispose();
        }

        assertThat(s.serverVersionNum() / 10000).isEqualTo(major);
        assertThat(s.wal().records()).isPositive();
        assertThat(s.walDir()).isNotNull();
        assertThat(s.walDir().files()).isPositive();
        assertThat(s.checkpoints()).as("checkpoint counters (%s)", major >= 17 ? "pg_stat_checkpointer"
                : "pg_stat_bgwriter").isNotNull();
        assertThat(s.database()).isNotNull();
        assertThat(s.tables()).extracting(DbSample.TableStats::table).containsExactly("public.churn");
        if (major >= 16) {
            assertThat(s.io()).as("pg_stat_io").isNotNull();
        } else {
            assertThat(s.io()).isNull();
        }
    }

    /**
     * A session waiting for another's row lock shows as Lock:transactionid (the lock is held 8 s: a loaded host
     * took over 4 s to take the first sample).
     */
    private static void waits(LiveDatabase pg, PgUrl monitor) throws Exception {
        var collector = new WaitsCollector(new WaitsCollector.Config(monitor, null), CollectorContext.of("majors"));
        var holder = CompletableFuture.runAsync(() -> pg.run(
                "begin; update api_keys set last_used_at = now() where id = 1; select pg_sleep(8); commit;"));
        Thread.sleep(300);
        var waiter = CompletableFuture.runAsync(() -> pg.run(
                "update api_keys set last_used_at = now() where id = 1"));
        Waits contended = collector.records().ofType(Waits.class)
                .filter(w -> w.load().containsKey("Lock:transactionid")).next().block(Duration.ofSeconds(20));
        assertThat(contended.load().get("Lock:transactionid")).isEqualTo(1.0);
        holder.get(20, TimeUnit.SECONDS);
        waiter.get(20, TimeUnit.SECONDS);
    }

    /** The server's own log lines for a checkpoint and an autovacuum, parsed with their figures. */
    private static void log(LiveDatabase pg, int major) {
        var collector = new PgLogCollector(new PgLogCollector.Config(pg.logFile(), null, true, Duration.ofMillis(50)),
                CollectorContext.of("majors"));
        var later = CompletableFuture.runAsync(() -> {
            sleep(300);
            pg.run("delete from churn where id % 2 = 0");
            pg.run("checkpoint");
        });
        PgLogEvent checkpoint = collector.events().ofType(PgLogEvent.class)
                .filter(e -> e.kind() == PgLogEvent.Kind.CHECKPOINT_COMPLETE).next().block(Duration.ofSeconds(20));
        assertThat(checkpoint.metrics()).containsKeys("buffers_written", "write_s", "sync_s", "total_s",
                "distance_kb");
        PgLogEvent vacuum = collector.events().ofType(PgLogEvent.class)
                .filter(e -> e.kind() == PgLogEvent.Kind.AUTOVACUUM && "postgres.public.churn".equals(e.table())
                        && e.metrics().getOrDefault("tuples_removed", 0.0) > 0)
                .next().block(Duration.ofSeconds(30));
        later.join();
        // an autovacuum that started while the delete ran removes part of it; the next one the rest
        assertThat(vacuum.metrics().get("tuples_removed")).isPositive().isLessThanOrEqualTo(25000.0);
        assertThat(vacuum.metrics()).containsKeys("pages_removed", "pages_remain", "wal_records", "wal_fpi",
                "wal_bytes", "elapsed_s");
        // 15 says how many pages it scanned; 14 only how many it skipped
        assertThat(vacuum.metrics()).containsKeys(major >= 15 ? "pages_scanned" : "pages_skipped_frozen");
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
