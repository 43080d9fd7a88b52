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
}
