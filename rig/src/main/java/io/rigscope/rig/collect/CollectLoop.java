package io.rigscope.rig.collect;

import io.rigscope.collectors.CollectorSet;
import io.rigscope.model.wire.WireRecord;
import io.rigscope.rig.options.ExitCodes;
import io.rigscope.rig.options.KafkaOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import reactor.core.publisher.Flux;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;
import io.rigscope.model.wire.Marker;
import io.rigscope.model.wire.Sample;
import io.rigscope.model.wire.SampleBatch;
import io.rigscope.rig.options.Durations;
import io.rigscope.rig.reconciliation.Reconciliation;
import io.rigscope.rig.options.UsageException;
import io.rigscope.rig.export.ExportTargets;
import io.rigscope.importers.k6.follow.FollowedFile;
import io.rigscope.importers.k6.follow.K6Follow;
import io.rigscope.importers.k6.follow.K6LineSource;
import io.rigscope.importers.k6.follow.K6Topic;
import io.rigscope.wire.kafka.TopicAdmin;
import java.nio.file.Files;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.LinkedHashMap;
import picocli.CommandLine.Option;

/**
 * What {@code rigscope collect NAME} does once its collectors are built: merges their streams, publishes every record
 * on one thread ({@code rigscope-collect-publish}) through {@link CollectOutput}, prints a line a second, and stops
 * when a collector dies (its stream ends or fails, or a clocked one stalls: {@link Stalls}). The caller's thread
 * waits in {@link #run}.
 */
public final class CollectLoop {

    private CollectLoop() {
    }

    /**
     * Publishes every record of {@code set} (to Kafka and {@code out}, or only {@code out} with {@code noKafka}) until
     * {@code stopAfter} (null: until Ctrl-C) or a collector dies; a line a second on stdout.
     *
     * @param interval the clocked collectors' sampling interval (null: 1 s), their stall limit's unit
     * @return the exit code: 1 when a collector died or a record was not published
     */
    public static int run(CollectorSet set, Duration stopAfter, Duration interval, KafkaOptions kafka, boolean noKafka,
                          Path out, String series) throws InterruptedException {
        Scheduler publishThread = Schedulers.newSingle("rigscope-collect-publish");
        LiveLine live = new LiveLine();
        try (CollectOutput output = CollectOutput.open(kafka, noKafka, out, "rigscope-collect",
                "collect-" + series)) {
            Consumer<WireRecord> sink = output::write;
            System.err.println("collect: " + String.join(", ", set.names()) + " for series " + series
                    + (stopAfter == null ? " (Ctrl-C to stop)" : " for " + stopAfter.toSeconds() + " s"));
            List<Flux<WireRecord>> tagged = new ArrayList<>();
            live.expect(set.names());
            for (String n : set.names()) {
                // every collector's stream is endless (its failures are gap markers and retries): one that ends or
                // fails anyway has died, and collect stops naming it rather than publish the others as if whole
                tagged.add(set.stream(n).doOnNext(r -> live.record(n, r))
                        .onErrorMap(e -> !(e instanceof CollectorDied), e -> new CollectorDied(n, e.toString(), e))
                        .concatWith(Flux.defer(() -> Flux.error(new CollectorDied(n, "its stream ended", null)))));
            }
            // a collector that samples on a clock and stalls (a hung child process or query) neither ends nor fails:
            // it only stops emitting, records and gap markers alike; past its limit it has died too
            Duration every = interval == null ? Duration.ofSeconds(1) : interval;
            Stalls stalls = new Stalls(set.names(), every);
            tagged.add(Flux.interval(Duration.ofSeconds(1), Schedulers.parallel()).concatMap(t -> {
                CollectorDied stalled = stalls.check(System.nanoTime());
                return stalled == null ? Flux.<WireRecord>empty() : Flux.<WireRecord>error(stalled);
            }));
            for (int i = 0; i < set.names().size(); i++) {
                String n = set.names().get(i);
                tagged.set(i, tagged.get(i).doOnNext(r -> stalls.heard(n, System.nanoTime())));
            }
            Flux<WireRecord> all = Flux.merge(tagged).publishOn(publishThread).doOnNext(sink);
            if (stopAfter != null) {
                all = all.take(stopAfter);
            }
            long startNs = System.nanoTime();
            var ticker = Flux.interval(Duration.ofSeconds(1), Schedulers.parallel())
                    .subscribe(t -> System.out.println(live.render((System.nanoTime() - startNs) / 1_000_000_000L)));
            var done = new java.util.concurrent.CountDownLatch(1);
            var died = new java.util.concurrent.atomic.AtomicReference<CollectorDied>();
            var running = all.doFinally(s -> done.countDown()).subscribe(r -> { }, e -> {
                if (e instanceof CollectorDied d) {
                    died.set(d);
                    System.err.println("collect: collector " + d.collector + " died: " + d.getMessage());
                } else {
                    System.err.println("collect: stopped: " + e.getMessage());
                }
            });
            Thread hook = new Thread(() -> {
                running.dispose();
                try {
                    done.await(5, java.util.concurrent.TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            Runtime.getRuntime().addShutdownHook(hook);
            done.await();
            ticker.dispose();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // Ctrl-C: the hook is running
            }
            output.flush();
            System.out.println("collect: records per topic " + live.perTopic() + "; gaps " + live.gaps()
                    + "; unparsed log lines " + live.rawLogLines() + output.summary());
            if (output.notPublishedLine() != null) {
                System.err.println(output.notPublishedLine());
            }
            if (died.get() != null) {
                System.err.println("collect: exiting " + ExitCodes.ERROR + ": collector " + died.get().collector
                        + " died (" + died.get().getMessage() + "); its stream is silent from here");
                return ExitCodes.ERROR;
            }
            return output.failed() ? ExitCodes.ERROR : ExitCodes.OK;
        } finally {
            publishThread.dispose();
        }
    }

    /**
     * The collectors that emit on a clock ({@link #CLOCKED}: vmstat, os, waits, db, canary): each emits a record or,
     * failing, a gap marker at least every interval, and a retry waits at most {@code Backoff.defaults()}' 10 s. One
     * that emitted and then emits nothing for {@link #STALL_BASE} plus 5 intervals has stalled: it died. Event-driven
     * collectors (pglog, rdslog) and polled AWS ones are quiet by nature and not watched. Thread-safe.
     */
    static final class Stalls {
        static final List<String> CLOCKED = List.of("vmstat", "os", "waits", "db", "canary");
        static final Duration STALL_BASE = Duration.ofSeconds(30);
        private final java.util.concurrent.ConcurrentHashMap<String, Long> lastNanos = new java.util.concurrent.ConcurrentHashMap<>();
        private final java.util.Set<String> watched;
        private final long limitNanos;

        Stalls(List<String> names, Duration interval) {
            this.watched = java.util.Set.copyOf(names.stream().filter(CLOCKED::contains).toList());
            this.limitNanos = STALL_BASE.plus(interval.multipliedBy(5)).toNanos();
        }

        void heard(String collector, long nowNanos) {
            if (watched.contains(collector)) {
                lastNanos.put(collector, nowNanos);
            }
        }

        /** The first watched collector silent past the limit, or null. */
        CollectorDied check(long nowNanos) {
            for (var e : new java.util.TreeMap<>(lastNanos).entrySet()) {
                long silentNanos = nowNanos - e.getValue();
                if (silentNanos > limitNanos) {
                    Instant since = Instant.now().minusNanos(silentNanos);
                    return new CollectorDied(e.getKey(), String.format(java.util.Locale.ROOT,
                            "stalled: nothing from it (no record, no gap marker) since %s, %d s, over its limit of %d s",
                            java.time.format.DateTimeFormatter.ISO_LOCAL_TIME.format(
                                    since.atZone(java.time.ZoneOffset.UTC).toLocalTime().withNano(0)),
                            silentNanos / 1_000_000_000L, limitNanos / 1_000_000_000L), null);
                }
            }
            return null;
        }
    }

    /** A collector whose stream ended or failed: it will publish nothing more. */
    static final class CollectorDied extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final String collector;

        CollectorDied(String collector, String why, Throwable cause) {
            super(why, cause);
            this.collector = collector;
        }
    }

    /**
     * {@code rigscope collect k6}: {@link K6Follow} over a followed file or an xk6-output-kafka topic, publishing to
     * Kafka (or only to {@code --out} with {@code --no-kafka}). Ctrl-C ends the follow cleanly: the end markers are
     * published before the process exits.
     */
    public static final class K6 {

        private final FollowOptions k6;
        private final KafkaOptions kafka;
        private final String series;
        private final Duration duration;
        private final Path out;
        private final boolean noKafka;
        private final String pgUrl;
        private final ExportTargets pushTo;

        public K6(FollowOptions k6, KafkaOptions kafka, String series, Duration duration, Path out, boolean noKafka,
                  String pgUrl, ExportTargets pushTo) {
            this.pushTo = pushTo;
            this.k6 = k6;
            this.kafka = kafka;
            this.series = series;
            this.duration = duration;
            this.out = out;
            this.noKafka = noKafka;
            this.pgUrl = pgUrl;
        }

        public int call() throws Exception {
            if ((k6.follow == null) == (k6.topic == null)) {
                throw new UsageException("collect k6 needs one of --follow FILE (k6 run --out json=FILE) or --topic T "
                        + "(xk6-output-kafka's topic)");
            }
            if (k6.follow != null && k6.follow.getFileName().toString().endsWith(".gz")) {
                throw new UsageException("--follow " + k6.follow + ": a compressed file cannot be followed while k6 writes "
                        + "it; use --out json=FILE (plain), or 'rigscope import k6' once the run ended");
            }
            if (k6.follow != null && Files.isDirectory(k6.follow)) {
                throw new UsageException("--follow " + k6.follow + " is a directory, not k6's output file");
            }
            if (k6.topic != null && noKafka) {
                throw new UsageException("--topic reads Kafka: it cannot go with --no-kafka");
            }
            if (k6.reconciliationSql != null && k6.noReconciliation) {
                throw new UsageException("--reconciliation-sql counts what the database gained; --no-reconciliation says "
                        + "nothing will: give one of them");
            }
            Reconciliation.Repeat reconciliation = Reconciliation.Repeat.of("--pg", pgUrl, "--reconciliation-sql",
                    k6.reconciliationSql);
            Duration lateness = k6.lateness;
            Duration idle = Durations.positive("--stop-after-idle", k6.stopAfterIdle);
            if (idle != null && idle.isZero()) {
                throw new UsageException("--stop-after-idle must be > 0");
            }
            K6Follow.Options options = K6Follow.Options.of(series).withLateness(lateness).withStopAfterIdle(idle)
                    .withDuration(duration).withScenarioMap(k6.scenarioMap).withReconciliationRequired(!k6.noReconciliation);

            Consumer<String> notes = s -> System.err.println("collect k6: " + s);
            AtomicBoolean stop = new AtomicBoolean();
            CountDownLatch done = new CountDownLatch(1);
            Thread hook = new Thread(() -> {
                stop.set(true);
                try {
                    done.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "rigscope-collect-k6-stop");
            try (CollectOutput output = CollectOutput.open(kafka, noKafka, out, "rigscope-collect-k6",
                    "collect-k6-" + series)) {
                if (k6.topic != null) {
                    try (TopicAdmin admin = new TopicAdmin(output.clients())) {
                        if (admin.ensureOnePartitionTopic(k6.topic)) {
                            notes.accept("created topic " + k6.topic + " (one partition: k6's order is kept) for "
                                    + "xk6-output-kafka to write to");
                        }
                    }
                }
                Runtime.getRuntime().addShutdownHook(hook);
                K6Follow.Result result;
                try (K6LineSource source = k6.follow != null ? new FollowedFile(k6.follow, notes)
                        : new K6Topic(output.clients(), k6.topic, notes)) {
                    System.err.println("collect k6: series " + series + ", seconds closed by time (lateness "
                            + lateness.toMillis() + " ms)" + (idle == null ? ", Ctrl-C to stop" : ", ending after "
                            + idle.toMillis() + " ms idle"));
                    Consumer<WireRecord> publish = reconciliation == null ? output::write
                            : new CountAtRepeatEnd(series, reconciliation, output::write);
                    // --prometheus-rw: the series' decisions, by the analyzer fed the same records, pushed as decided
                    ExportTargets.AnalyzedPush push = !pushTo.any() ? null
                            : new ExportTargets.AnalyzedPush(series, publish, pushTo.open(System.out));
                    try {
                        result = new K6Follow(options, push == null ? publish : push, notes).run(source, stop::get,
                                r -> System.out.println(line(r)));
                    } finally {
                        if (push != null) {
                            push.close();
                        }
                    }
                } catch (K6Topic.WrongFormat e) {
                    throw new UsageException(e.getMessage());
                }
                output.flush();
                System.out.println(line(result) + ", ended: " + result.ending().code() + output.summary());
                if (output.notPublishedLine() != null) {
                    System.err.println(output.notPublishedLine());
                }
                return output.failed() ? ExitCodes.ERROR : ExitCodes.OK;
            } finally {
                done.countDown(); // the end markers are out (or the follow failed): a Ctrl-C may let the JVM exit
                try {
                    Runtime.getRuntime().removeShutdownHook(hook);
                } catch (IllegalStateException | IllegalArgumentException shuttingDownOrNotAdded) {
                    // Ctrl-C: the hook is running (or it was never added)
                }
            }
        }

        /**
         * Hands every record on and, right after a repeat's REPEAT_END (before the SERIES_END that follows it), counts what
         * the database gained over the repeat's window and hands on its RECONCILIATION marker. The window runs from the
         * earliest send of the repeat's samples (or its REPEAT_START) to 1 ms past its REPEAT_END, on k6's clock.
         */
        private static final class CountAtRepeatEnd implements Consumer<WireRecord> {

            private final String series;
            private final Reconciliation.Repeat reconciliation;
            private final Consumer<WireRecord> next;
            private final Map<Integer, Long> firstUsByRep = new HashMap<>();

            CountAtRepeatEnd(String series, Reconciliation.Repeat reconciliation, Consumer<WireRecord> next) {
                this.series = series;
                this.reconciliation = reconciliation;
                this.next = next;
            }

            @Override
            public void accept(WireRecord r) {
                next.accept(r);
                if (r.rep() == 0) {
                    return;
                }
                if (r instanceof SampleBatch b) {
                    long first = b.samples().stream().mapToLong(Sample::t1).min().orElse(Long.MAX_VALUE);
                    firstUsByRep.merge(r.rep(), first, Math::min);
                } else if (r instanceof Marker m && m.kind() == Marker.Kind.REPEAT_START) {
                    firstUsByRep.merge(r.rep(), m.ts(), Math::min);
                } else if (r instanceof Marker m && m.kind() == Marker.Kind.REPEAT_END) {
                    long startUs = firstUsByRep.getOrDefault(m.rep(), m.ts());
                    reconciliation.publish(series, m.rep(), m.src(), m.phase(), micros(startUs),
                            micros(m.ts()).plusMillis(1), next, System.err);
                }
            }

            private static Instant micros(long epochUs) {
                return Instant.ofEpochSecond(Math.floorDiv(epochUs, 1_000_000L), Math.floorMod(epochUs, 1_000_000L) * 1_000L);
            }
        }

        private static String line(K6Follow.Result r) {
            return String.format("collect k6: %,d lines, %,d samples, %,d dropped, %,d unreadable%s", r.lines(),
                    r.samples(), r.dropped(), r.unreadable(), r.cutShort() ? " (last line cut short)" : "");
        }

        /** The options of {@code rigscope collect k6}: where k6 writes, and how its seconds close. */
        public static final class FollowOptions {

            @Option(names = "--follow", paramLabel = "FILE",
                    description = "k6: follow this k6 --out json=FILE while k6 writes it (plain file; waits for it, follows "
                            + "truncation and rotation; a last line without its newline waits for it).")
            Path follow;

            @Option(names = "--topic", paramLabel = "T",
                    description = "k6: read the topic xk6-output-kafka writes (--out xk6-kafka=brokers=...,topic=T, its json "
                            + "format), from its start, on the --bootstrap cluster.")
            String topic;

            @Option(names = "--lateness", paramLabel = "DURATION", defaultValue = "2s",
                    description = "k6: a second closes once k6's stream is this far past its end (default ${DEFAULT-VALUE}); a point of a "
                            + "second already closed is counted late.")
            Duration lateness;

            @Option(names = "--stop-after-idle", paramLabel = "DURATION",
                    description = "k6: end when nothing new arrived for this long after the first line (before it, wait for "
                            + "k6 to start; --duration bounds that wait). Default: until Ctrl-C.")
            Duration stopAfterIdle;

            @Option(names = "--scenario-map", paramLabel = "K6=RIGSCOPE", split = ",",
                    description = "k6: rename k6 scenarios, e.g. --scenario-map read=probe,default=ingest.")
            Map<String, String> scenarioMap = new LinkedHashMap<>();

            @Option(names = "--reconciliation-sql", paramLabel = "SQL|@FILE",
                    description = {"k6, with --pg: when a k6 repeat ends, count what the database gained over its window "
                        + "with this SQL (one row: rows_written, qty_sum_gained; parameters :window_start, :window_end, :run, "
                        + ":rep) and publish it as the repeat's RECONCILIATION marker, before the series' end."})
            String reconciliationSql;

            @Option(names = "--no-reconciliation",
                    description = "k6: tell the analyzer not to require a RECONCILIATION marker (k6 holds no database count).")
            boolean noReconciliation;
        }
    }
}
