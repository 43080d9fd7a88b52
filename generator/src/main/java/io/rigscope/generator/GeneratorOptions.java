package io.rigscope.generator;

import io.rigscope.generator.http.ClientLoops;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How the generator runs (not what it offers: that is the {@code LoadPlan}).
 *
 * @param ioThreads event-loop threads of the HTTP client, >= 1 (default: available processors)
 * @param minWakeGapNanos open loop: the least time between two wakes of a scheduler (default 50 µs); requests
 *                        that fall due inside the gap go out together at its end. 0 wakes for every request.
 * @param maxSendLagNanos open loop, the adaptive wake policy's lag budget (default 100 µs, at most 1 ms): a lane's
 *                        next wake moves to the intended start of the last request due within this long of the
 *                        first one waiting, so every request due in that window goes out in one wake, the first at
 *                        most this late, none early; when two or more fall in the window the loop also takes replies
 *                        at its wakes instead of being woken by each. When only one falls in it (low rates) the wake
 *                        is at its intended start, as with 0. 0: the precise policy, a wake per request at its
 *                        intended start (the least wake gap still applies). docs/generator.md "Wake policy"
 * @param busyPoll the client loops poll without blocking during the run (a whole core each; the least send
 *                 lag); default false
 * @param pollNanos open loop: when a lane's next request is due within this long, its loop sleeps until then
 *                  without waiting on the sockets, then takes every reply that arrived in one look (default 0:
 *                  off). The target's replies then never have to wake the loop, which saves both sides a
 *                  cross-CPU wake-up per request, but a reply is stamped {@code t2} when the loop next looks:
 *                  up to the gap between two wakes late (50 µs at high rates; see docs/generator.md "Polling").
 *                  At most 1 ms.
 * @param preconnect open loop: each lane opens as many keep-alive connections before the schedule as it starts
 *                   requests in this long (default 100 ms: 2,000 at 20,000 req/s, 25 at 250; at least 1, at most
 *                   its cap). A hiccup longer than this puts more requests out than there are connections, and the
 *                   extra connects on the loop can turn it into a cascade: with 5 ms, 2 of 10 single-JVM bench runs
 *                   at 20,000 req/s had one; with 20 ms, send lag max 48-99 ms and drops in 6 of 6 steps at
 *                   20,000 req/s with the server in a JVM of its own, with 100 ms 9-16 ms (docs/generator.md
 *                   "Connections opened ahead, measured in two JVMs").
 * @param idleTimeout a keep-alive connection idle this long is closed by the generator (default zero: never), so
 *                    that it is not the server that closes it just as a request goes out on it: that request
 *                    would be a {@code reset}, never retried. Servers close idle connections after their own
 *                    keep-alive timeout (Node's default 5 s); set this below it when a run shows such resets.
 *                    Not the default: idle connections are the headroom that lets a hiccup pass without a
 *                    connect storm (see {@code preconnect}), and most servers keep them far longer.
 * @param outboxCapacity records held in memory on the way to Kafka before the spool file takes over
 * @param spoolDir where the spool file goes (default: the system temp directory)
 * @param batchMaxSamples a SampleBatch record is sealed at this many samples ...
 * @param batchMaxAge ... or when its oldest sample waited this long
 * @param drainGrace after the schedule ends, how long past the longest request timeout to wait for requests
 *                   still in flight
 * @param listener receives each final second (the console line)
 * @param seriesCounter the counter body templates' {@code ${seq}} take their values from: one for every run made
 *                      with these options (and with options derived from them by the {@code with...} methods), so
 *                      that {@code ${seq}} is unique and increasing over every scenario and repeat of a series
 *                      that one generator offers. Give a fresh counter per series ({@link #withSeriesCounter});
 *                      null: a fresh one. Generators in other processes ({@code --share K/N}) count on their own:
 *                      their values overlap, so make a key unique with {@code ${idempotency_key}} there.
 * @param checkBodyCapBytes a scenario whose response check reads the body keeps at most this many bytes of each
 *                          response body (default {@link #DEFAULT_CHECK_BODY_CAP_BYTES}, 64 KiB); a longer body
 *                          is truncated, and a check on a truncated body says so (docs/generator.md "Response
 *                          checks"). A scenario without such a check never copies a body. >= 1
 * @param serverTiming read each response's W3C {@code Server-Timing} header onto its sample (default true; docs/generator.md
 *                     "Server-Timing" gives its cost); false: the header is ignored and samples carry none
 * @param journalDir where the write-ahead sample journal goes ({@code outbox.SampleJournal}: every sample batch
 *                   written there before it is handed to the sink, the broker's acknowledgements marked in it, so that
 *                   a killed generator's unacknowledged samples can be published later by {@code generate --recover});
 *                   null: no journal (the default; docs/generator.md "What a killed generator loses")
 * @param clientLoops the HTTP client's event loops every run made with these options uses, owned by the caller, who
 *                    opens them ({@link ClientLoops#open}) before the first run and closes them after the last; the
 *                    generator never closes them. null (the default): each run opens {@code ioThreads} loops of its
 *                    own and closes them when it ends, which costs the first tens of ms of every run (a fresh loop
 *                    thread starts in the interpreter: docs/generator.md "Where a request's CPU goes"), so give loops to several runs
 *                    in one process ({@link #withClientLoops})
 */
public record GeneratorOptions(int ioThreads, long minWakeGapNanos, long maxSendLagNanos, boolean busyPoll, long pollNanos, Duration preconnect, Duration idleTimeout, int outboxCapacity, Path spoolDir, int batchMaxSamples,
                               Duration batchMaxAge, Duration drainGrace, ProgressListener listener, AtomicLong seriesCounter,
                               int checkBodyCapBytes, boolean serverTiming, Path journalDir, ClientLoops clientLoops) {

    /** The default {@link #checkBodyCapBytes()}: 64 KiB. */
    public static final int DEFAULT_CHECK_BODY_CAP_BYTES = 64 * 1024;

    /** The default {@link #maxSendLagNanos()}: 100 µs. */
    public static final long DEFAULT_MAX_SEND_LAG_NANOS = 100_000;

    public GeneratorOptions {
        if (ioThreads < 1) {
            throw new IllegalArgumentException("ioThreads must be >= 1, was " + ioThreads);
        }
        if (clientLoops != null && clientLoops.threads() != ioThreads) {
            throw new IllegalArgumentException("ioThreads " + ioThreads + " differs from the client loops' "
                    + clientLoops.threads() + " thread(s)");
        }
        if (minWakeGapNanos < 0) {
            throw new IllegalArgumentException("minWakeGapNanos must be >= 0, was " + minWakeGapNanos);
        }
        if (maxSendLagNanos < 0 || maxSendLagNanos > 1_000_000) {
            throw new IllegalArgumentException("maxSendLagNanos must be 0-1,000,000 (1 ms), was " + maxSendLagNanos);
        }
        if (pollNanos < 0 || pollNanos > 1_000_000) {
            throw new IllegalArgumentException("pollNanos must be 0-1,000,000 (1 ms), was " + pollNanos);
        }
        Objects.requireNonNull(preconnect, "preconnect");
        if (preconnect.isNegative()) {
            throw new IllegalArgumentException("preconnect must be >= 0, was " + preconnect);
        }
        Objects.requireNonNull(idleTimeout, "idleTimeout");
        if (idleTimeout.isNegative()) {
            throw new IllegalArgumentException("idleTimeout must be >= 0, was " + idleTimeout);
        }
        if (outboxCapacity < 1) {
            throw new IllegalArgumentException("outboxCapacity must be >= 1, was " + outboxCapacity);
        }
        spoolDir = spoolDir == null ? Path.of(System.getProperty("java.io.tmpdir")) : spoolDir;
        if (batchMaxSamples < 1) {
            throw new IllegalArgumentException("batchMaxSamples must be >= 1, was " + batchMaxSamples);
        }
        Objects.requireNonNull(batchMaxAge, "batchMaxAge");
        Objects.requireNonNull(drainGrace, "drainGrace");
        listener = listener == null ? ProgressListener.none() : listener;
        seriesCounter = seriesCounter == null ? new AtomicLong() : seriesCounter;
        if (checkBodyCapBytes < 1) {
            throw new IllegalArgumentException("checkBodyCapBytes must be >= 1, was " + checkBodyCapBytes);
        }
    }

    /** Options with a fresh series counter and the default body cap of response checks. */
    public GeneratorOptions(int ioThreads, long minWakeGapNanos, boolean busyPoll, long pollNanos, Duration preconnect,
                            Duration idleTimeout, int outboxCapacity, Path spoolDir, int batchMaxSamples,
                            Duration batchMaxAge, Duration drainGrace, ProgressListener listener) {
        this(ioThreads, minWakeGapNanos, DEFAULT_MAX_SEND_LAG_NANOS, busyPoll, pollNanos, preconnect, idleTimeout, outboxCapacity, spoolDir,
                batchMaxSamples, batchMaxAge, drainGrace, listener, null, DEFAULT_CHECK_BODY_CAP_BYTES, true, null, null);
    }

    /**
     * Defaults: one event loop per core, a 50 µs least wake gap, the adaptive wake policy with a 100 µs lag budget, idle connections kept, 4,096 records in memory,
     * batches of 500 samples or 50 ms, a fresh series counter, response checks keeping 64 KiB of a body.
     */
    public static GeneratorOptions defaults() {
        return new GeneratorOptions(Runtime.getRuntime().availableProcessors(), 50_000, DEFAULT_MAX_SEND_LAG_NANOS, false, 0, Duration.ofMillis(100), Duration.ZERO, 4096, null, 500,
                Duration.ofMillis(50), Duration.ofSeconds(5), null, null, DEFAULT_CHECK_BODY_CAP_BYTES, true, null, null);
    }

    public GeneratorOptions withListener(ProgressListener l) {
        return new GeneratorOptions(ioThreads, minWakeGapNanos, maxSendLagNanos, busyPoll, pollNanos, preconnect, idleTimeout, outboxCapacity, spoolDir, batchMaxSamples, batchMaxAge,
                drainGrace, l, seriesCounter, checkBodyCapBytes, serverTiming, journalDir, clientLoops);
    }

    public GeneratorOptions withMinWakeGapNanos(long n) {
        return new GeneratorOptions(ioThreads, n, maxSendLagNanos, busyPoll, pollNanos, preconnect, idleTimeout, outboxCapacity, spoolDir, batchMaxSamples, batchMaxAge, drainGrace,
                listener, seriesCounter, checkBodyCapBytes, serverTiming, journalDir, clientLoops);
    }

    /**
     * These options with the adaptive wake policy's lag budget (see {@link #maxSendLagNanos()}); 0 is the precise
     * policy, one wake per request. Returns new options.
     */
    public GeneratorOptions withMaxSendLagNanos(long n) {
        return new GeneratorOptions(ioThreads, minWakeGapNanos, n, busyPoll, pollNanos, preconnect, idleTimeout, outboxCapacity, spoolDir, batchMaxSamples, batchMaxAge,
                drainGrace, listener, seriesCounter, checkBodyCapBytes, serverTiming, journalDir, clientLoops);
    }

    public GeneratorOptions withBusyPoll(boolean b) {
        return new GeneratorOptions(ioThreads, minWakeGapNanos, maxSendLagNanos, b, pollNanos, preconnect, idleTimeout, outboxCapacity, spoolDir, batchMaxSamples, batchMaxAge,
                drainGrace, listener, seriesCounter, checkBodyCapBytes, serverTiming, journalDir, clientLoops);
    }

    public GeneratorOptions withPollNanos(long n) {
        return new GeneratorOptions(ioThreads, minWakeGapNanos, maxSendLagNanos, busyPoll, n, preconnect, idleTimeout, outboxCapacity, spoolDir,
                batchMaxSamples, batchMaxAge, drainGrace, listener, seriesCounter, checkBodyCapBytes, serverTiming, journalDir, clientLoops);
    }

    public GeneratorOptions withPreconnect(Duration d) {
        return new GeneratorOptions(ioThreads, minWakeGapNanos, maxSendLagNanos, busyPoll, pollNanos, d, idleTimeout, outboxCapacity, spoolDir, batchMaxSamples,
                batchMaxAge, drainGrace, listener, seriesCounter, checkBodyCapBytes, serverTiming, journalDir, clientLoops);
    }

    public GeneratorOptions withIdleTimeout(Duration d) {
        return new GeneratorOptions(ioThreads, minWakeGapNanos, maxSendLagNanos, busyPoll, pollNanos, preconnect, d, outboxCapacity, spoolDir, batchMaxSamples,
                batchMaxAge, drainGrace, listener, seriesCounter, checkBodyCapBytes, serverTiming, journalDir, clientLoops);
    }

    public GeneratorOptions withIoThreads(int n) {
        return new GeneratorOptions(n, minWakeGapNanos, maxSendLagNanos, busyPoll, pollNanos, preconnect, idleTimeout, outboxCapacity, spoolDir, batchMaxSamples, batchMaxAge, drainGrace,
                listener, seriesCounter, checkBodyCapBytes, serverTiming, journalDir, clientLoops);
    }

    public GeneratorOptions withOutboxCapacity(int n) {
        return new GeneratorOptions(ioThreads, minWakeGapNanos, maxSendLagNanos, busyPoll, pollNanos, preconnect, idleTimeout, n, spoolDir, batchMaxSamples, batchMaxAge, drainGrace,
                listener, seriesCounter, checkBodyCapBytes, serverTiming, journalDir, clientLoops);
    }

    public GeneratorOptions withSpoolDir(Path dir) {
        return new GeneratorOptions(ioThreads, minWakeGapNanos, maxSendLagNanos, busyPoll, pollNanos, preconnect, idleTimeout, outboxCapacity, dir, batchMaxSamples, batchMaxAge, drainGrace,
                listener, seriesCounter, checkBodyCapBytes, serverTiming, journalDir, clientLoops);
    }

    /**
     * These options with {@code counter} as the series counter of {@code ${seq}} (see {@link #seriesCounter()}):
     * give each series a fresh one, and its repeats the same. Returns new options; null: a fresh counter.
     */
    public GeneratorOptions withSeriesCounter(AtomicLong counter) {
        return new GeneratorOptions(ioThreads, minWakeGapNanos, maxSendLagNanos, busyPoll, pollNanos, preconnect, idleTimeout, outboxCapacity, spoolDir,
                batchMaxSamples, batchMaxAge, drainGrace, listener, counter, checkBodyCapBytes, serverTiming, journalDir, clientLoops);
    }

    /** These options with the write-ahead sample journal in {@code dir} (null: none); see {@link #journalDir()}. */
    public GeneratorOptions withJournalDir(Path dir) {
        return new GeneratorOptions(ioThreads, minWakeGapNanos, maxSendLagNanos, busyPoll, pollNanos, preconnect, idleTimeout, outboxCapacity, spoolDir,
                batchMaxSamples, batchMaxAge, drainGrace, listener, seriesCounter, checkBodyCapBytes, serverTiming, dir, clientLoops);
    }

    /** These options with response checks keeping at most {@code bytes} of a body (see {@link #checkBodyCapBytes()}). */
    public GeneratorOptions withCheckBodyCapBytes(int bytes) {
        return new GeneratorOptions(ioThreads, minWakeGapNanos, maxSendLagNanos, busyPoll, pollNanos, preconnect, idleTimeout, outboxCapacity, spoolDir,
                batchMaxSamples, batchMaxAge, drainGrace, listener, seriesCounter, bytes, serverTiming, journalDir, clientLoops);
    }

    /**
     * These options with runs on {@code loops} (the caller's: opened before, closed after every run made with them);
     * {@link #ioThreads()} becomes their thread count.
     */
    public GeneratorOptions withClientLoops(ClientLoops loops) {
        java.util.Objects.requireNonNull(loops, "loops");
        return new GeneratorOptions(loops.threads(), minWakeGapNanos, maxSendLagNanos, busyPoll, pollNanos, preconnect, idleTimeout, outboxCapacity,
                spoolDir, batchMaxSamples, batchMaxAge, drainGrace, listener, seriesCounter, checkBodyCapBytes, serverTiming,
                journalDir, loops);
    }

    /** These options reading (true) or ignoring (false) each response's {@code Server-Timing} header. */
    public GeneratorOptions withServerTiming(boolean read) {
        return new GeneratorOptions(ioThreads, minWakeGapNanos, maxSendLagNanos, busyPoll, pollNanos, preconnect, idleTimeout, outboxCapacity, spoolDir,
                batchMaxSamples, batchMaxAge, drainGrace, listener, seriesCounter, checkBodyCapBytes, read, journalDir, clientLoops);
    }
}
