package io.rigscope.collectors.db;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.collectors.CollectorContext;
import io.rigscope.localenv.postgres.PrivatePostgres;
import io.rigscope.localenv.testing.Postgres;
import io.rigscope.model.wire.DbSample;
import io.rigscope.model.wire.WireRecord;
import io.rigscope.pg.PgUrl;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.core.Disposable;

@Tag("it")
class DbSamplerTest {

    @RegisterExtension
    static final Postgres pg = new Postgres(PrivatePostgres.Options.defaults().with("autovacuum", "off"));

    @BeforeAll
    static void createMonitorRoleAndTable() {
        pg.psql("postgres", "create role monitor login; grant pg_monitor to monitor;"
                + " create table events(id bigserial primary key, qty int, note text)");
    }

    /** Collects samples in the background until {@code done} holds for one of them (or the timeout). */
    private static List<DbSample> sampleUntil(DbSampler sampler, Runnable load, Predicate<DbSample> done) throws Exception {
        List<DbSample> seen = new CopyOnWriteArrayList<>();
        CompletableFuture<DbSample> hit = new CompletableFuture<>();
        Disposable sub = sampler.records().ofType(DbSample.class).doOnNext(s -> {
            seen.add(s);
            if (done.test(s)) {
                hit.complete(s);
            }
        }).subscribe();
        try {
            long deadline = System.currentTimeMillis() + 10_000;
            while (seen.isEmpty() && System.currentTimeMillis() < deadline) {
                Thread.sleep(20);
            }
            load.run();
            hit.get(20, java.util.concurrent.TimeUnit.SECONDS);
            return List.copyOf(seen);
        } finally {
            sub.dispose();
        }
    }

    @Test
    void walBytesRiseAfterAnInsertBurstAndTheTableCountsFollow() throws Exception {
        var sampler = new DbSampler(new DbSampler.Config(PgUrl.parse("test", pg.libpqUrl("postgres", "postgres")), List.of("events"),
                Duration.ofMillis(250)), CollectorContext.of("s1"));
        // WAL positions are live, the cumulative statistics (commits) are flushed up to a second after the commit:
        // sample until the burst's WAL showed and then a commit was counted, in the same sample or a later one
        java.util.concurrent.atomic.AtomicBoolean burstSeen = new java.util.concurrent.atomic.AtomicBoolean();
        List<DbSample> samples = sampleUntil(sampler,
                () -> pg.psql("postgres", "insert into events(qty, note) select g, repeat('x', 100) from generate_series(1, 50000) g"),
                s -> {
                    if (s.wal() != null && s.wal().bytes() > 5_000_000) {
                        burstSeen.set(true);
                    }
                    return burstSeen.get() && s.database() != null && s.database().commits() > 0;
                });

        DbSample first = samples.get(0);
        assertThat(first.intervalMs()).isZero();
        assertThat(first.wal().bytes()).isZero();
        assertThat(first.serverVersionNum()).isBetween(150000, 189999);
        DbSample burst = samples.stream().filter(x -> x.wal() != null && x.wal().bytes() > 5_000_000).findFirst()
                .orElseThrow();
        DbSample counted = samples.get(samples.size() - 1);
        assertThat(burst.wal().records()).isGreaterThan(50_000);
        assertThat(burst.intervalMs()).isPositive();
        assertThat(burst.walDir().files()).isPositive();
        assertThat(burst.walDir().bytes()).isEqualTo(burst.walDir().files() * 16L * 1024 * 1024);
        assertThat(burst.checkpoints()).isNotNull();
        assertThat(counted.database().commits()).isPositive();
        assertThat(burst.tables()).singleElement().satisfies(t -> assertThat(t.table()).isEqualTo("public.events"));
        if (burst.serverVersionNum() >= 160000) {
            assertThat(burst.io()).isNotNull();
        } else {
            assertThat(burst.io()).isNull();
        }
    }

    @Test
    void aRoleWithOnlyPgMonitorReadsEveryPart() throws Exception {
        var sampler = new DbSampler(new DbSampler.Config(PgUrl.parse("test", pg.libpqUrl("postgres", "monitor")), List.of("public.events"),
                Duration.ofMillis(250)), CollectorContext.of("s1"));
        List<DbSample> samples = sampleUntil(sampler, () -> pg.psql("postgres", "insert into events(qty) values (1)"),
                s -> s.database() != null && s.database().commits() > 0);

        DbSample s = samples.get(samples.size() - 1);
        assertThat(s.wal()).isNotNull();
        assertThat(s.checkpoints()).isNotNull();
        assertThat(s.walDir()).isNotNull();
        assertThat(s.walDir().files()).isPositive();
        assertThat(s.database()).isNotNull();
        assertThat(s.tables()).extracting(DbSample.TableStats::table).containsExactly("public.events");
    }

    @Test
    void aVacuumShowsInPgStatProgressVacuumWithItsTableAndPhase() throws Exception {
        pg.psql("postgres", "create table churn(id int, pad text); insert into churn select g, repeat('p', 200)"
                + " from generate_series(1, 300000) g; delete from churn where id % 2 = 0");
        // a cost-delayed VACUUM takes a couple of seconds here, long enough for 50 ms samples to see it
        pg.psql("postgres", "alter system set vacuum_cost_delay = 2");
        pg.psql("postgres", "select pg_reload_conf()");
        var sampler = new DbSampler(new DbSampler.Config(PgUrl.parse("test", pg.libpqUrl("postgres", "postgres")), List.of("churn"),
                Duration.ofMillis(50)), CollectorContext.of("s1"));
        List<DbSample> samples;
        try {
            samples = sampleUntil(sampler, () -> CompletableFuture.runAsync(() -> pg.psql("postgres", "vacuum churn")),
                    s -> s.vacuums().stream().anyMatch(v -> v.table().equals("churn") && v.heapBlksScanned() > 0));
        } finally {
            pg.psql("postgres", "alter system reset vacuum_cost_delay");
            pg.psql("postgres", "select pg_reload_conf()");
        }

        DbSample.VacuumProgress v = samples.get(samples.size() - 1).vacuums().stream()
                .filter(p -> p.table().equals("churn")).findFirst().orElseThrow();
        assertThat(v.heapBlksTotal()).isPositive();
        assertThat(v.phase()).isNotBlank();
        assertThat(v.pid()).isPositive();
    }

    @Test
    void checkpointCountersComeFromTheCheckpointerFrom17AndPgStatIoExistsFrom16() {
        assertThat(DbSampler.checkpointSql(150018)).contains("from pg_stat_bgwriter").contains("checkpoints_timed");
        assertThat(DbSampler.checkpointSql(160009)).contains("from pg_stat_bgwriter");
        assertThat(DbSampler.checkpointSql(170000)).contains("from pg_stat_checkpointer").contains("num_timed");
        assertThat(DbSampler.checkpointSql(180001)).contains("from pg_stat_checkpointer");
        assertThat(DbSampler.ioSql(150018)).isEmpty();
        assertThat(DbSampler.ioSql(160000)).hasValueSatisfying(sql -> assertThat(sql).contains("pg_stat_io"));
        assertThat(DbSampler.ioSql(180000)).isPresent();
    }

    @Test
    void aCounterGoingBackwardsGivesAZeroDelta() {
        var counter = new DbSampler.Counter();
        assertThat(counter.delta(new long[] {10, 20})).containsExactly(0, 0);
        assertThat(counter.delta(new long[] {15, 26})).containsExactly(5, 6);
        assertThat(counter.delta(new long[] {1, 2})).containsExactly(0, 0);
        assertThat(counter.delta(new long[] {4, 2})).containsExactly(3, 0);
    }

    @Test
    void aKilledSessionYieldsAGapMarkerAndSamplingResumesOnANewConnection() {
        var sampler = new DbSampler(new DbSampler.Config(PgUrl.parse("test", pg.libpqUrl("postgres", "postgres")), List.of(),
                Duration.ofMillis(200)), CollectorContext.of("s1"));
        List<WireRecord> out = sampler.records()
                .doOnNext(r -> {
                    if (r instanceof DbSample s && s.intervalMs() == 0 && s.ts() > 0) {
                        CompletableFuture.runAsync(() -> pg.psql("postgres", "select pg_terminate_backend(pid)"
                                + " from pg_stat_activity where application_name = 'rigscope-collector-db'"));
                    }
                })
                .takeUntil(r -> r instanceof io.rigscope.model.wire.Marker m
                        && m.body() instanceof io.rigscope.model.wire.Gap g && Integer.valueOf(0).equals(g.attempt()))
                .collectList().block(Duration.ofSeconds(20));

        var markers = out.stream().filter(r -> r instanceof io.rigscope.model.wire.Marker)
                .map(io.rigscope.model.wire.Marker.class::cast).toList();
        assertThat(markers).hasSizeGreaterThanOrEqualTo(2);
        assertThat(markers.get(0).kind()).isEqualTo(io.rigscope.model.wire.Marker.Kind.GAP);
        var first = (io.rigscope.model.wire.Gap) markers.get(0).body();
        var last = (io.rigscope.model.wire.Gap) markers.get(markers.size() - 1).body();
        assertThat(first.reason()).isNotBlank();
        assertThat(last.attempt()).isZero();
        assertThat(last.endUs()).isGreaterThanOrEqualTo(first.startUs());
    }

    @Test
    void anUnreachableServerYieldsGapMarkersNotAnError() {
        var sampler = new DbSampler(new DbSampler.Config(PgUrl.parse("test", "r2dbc:postgresql://postgres@127.0.0.1:1/postgres"), List.of(),
                Duration.ofMillis(100)), CollectorContext.of("s1"));
        List<WireRecord> out = sampler.records().take(1).collectList().block(Duration.ofSeconds(15));
        assertThat(out).singleElement().satisfies(r -> assertThat(r.topic().topicName()).isEqualTo("rig.markers"));
    }
}
