package io.rigscope.generator;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.EventLoopGroup;
import io.rigscope.generator.body.BodyRenderer;
import io.rigscope.generator.body.RequestBody;
import io.rigscope.generator.http.RequestEncoder;
import io.rigscope.generator.plan.LoopMode;
import io.rigscope.generator.plan.ResponseCheck;
import io.rigscope.generator.plan.Scenario;
import io.rigscope.generator.schedule.ArrivalSchedule;
import io.rigscope.generator.schedule.Share;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.atomic.LongAdder;

/**
 * A scenario while it runs: its encoded request, its body renderer, its counters by intended-start second
 * (read by the sample batcher), and its {@link Lane}s, one per event loop it runs on.
 *
 * <p>A scenario runs on {@code min(ioThreads, maxInFlight, ceil(rate / 25,000))} lanes (closed loop:
 * {@code min(ioThreads, workers)}): open loop, lane k takes requests k, k + lanes, ... of the schedule, and
 * each lane holds an equal share of the in-flight cap, so a lane drops a request when its own share is out.
 */
final class ScenarioRun {

    /** Open-loop requests per second one lane is given before a scenario is spread over more event loops. */
    static final double RATE_PER_LANE = 25_000;

    final Scenario scenario;
    final LoopMode mode;
    final ArrivalSchedule schedule;
    final MicroClock clock;
    final RequestEncoder encoder;
    final ConcurrentHashMap<Long, SecondCounts> bySecond = new ConcurrentHashMap<>();
    final List<Lane> lanes = new ArrayList<>();
    /** Open loop: the least time between two wakes of a lane's scheduler (see {@link Lane}). */
    final long minWakeGapNanos;
    /** Open loop: a lane whose next request is due within this long lets its loop sleep and poll (0: never). */
    final long pollNanos;
    /** Open loop: the adaptive wake policy's lag budget (0: the precise policy); see {@link OpenLoopTicker}. */
    final long maxSendLagNanos;
    /** The scenario's response check, or null: the status decides. */
    final ResponseCheck check;
    /** How many bytes of a response body a connection keeps for the check; 0: none (bodies only counted). */
    final int checkBodyCapBytes;
    /** Read each response's Server-Timing header onto its sample. */
    final boolean readServerTiming;
    /** Server-Timing metrics skipped as malformed, over every lane (each lane parses on its own loop). */
    final LongAdder serverTimingMalformed = new LongAdder();
    /** Idle keep-alive connections are closed after this long; 0: never. */
    final long idleTimeoutNanos;
    private final double preconnectSeconds;
    /** Where each lane adds the sample of a request that ended, and the run's stop flag. */
    final CompletionQueue completions;
    private final BodyRenderer renderer;
    private final AtomicLong closedSeq = new AtomicLong();
    private final LongAdder sent = new LongAdder();
    private final LongAdder dropped = new LongAdder();

    /**
     * @param loops     the event loops the lanes are spread over
     * @param bootstrap channel class and options shared by every connection
     * @param share this generator's part of the scenario's schedule ({@link Share#WHOLE} alone)
     */
    ScenarioRun(Scenario scenario, LoopMode mode, CompletionQueue completions, EventLoopGroup loops,
                GeneratorOptions options, Bootstrap bootstrap, String keyPrefix, Share share) {
        this.minWakeGapNanos = options.minWakeGapNanos();
        this.pollNanos = options.pollNanos();
        this.maxSendLagNanos = options.maxSendLagNanos();
        this.idleTimeoutNanos = options.idleTimeout().toNanos();
        this.preconnectSeconds = options.preconnect().toNanos() / 1e9;
        this.scenario = scenario;
        this.mode = mode;
        this.completions = completions;
        this.clock = completions.clock;
        this.schedule = share.of(ArrivalSchedule.constantRate(scenario.requestsPerSec()));
        this.renderer = scenario.body() == null ? null
                : new BodyRenderer(scenario.body(), keyPrefix + scenario.name() + ".", options.seriesCounter(), share);
        this.check = scenario.check();
        this.readServerTiming = options.serverTiming();
        this.checkBodyCapBytes = scenario.check() != null && scenario.check().needsBody() ? options.checkBodyCapBytes() : 0;
        // the headers with their ${env:NAME} resolved: only the request carries the values
        this.encoder = new RequestEncoder(scenario.method(), scenario.url(), scenario.sendHeaders(),
                scenario.body() == null ? null : "application/json");
        // Resolved once, here: a lookup on an event loop would block it.
        int port = scenario.url().getPort() == -1 ? 80 : scenario.url().getPort();
        InetSocketAddress address = new InetSocketAddress(scenario.url().getHost(), port);
        if (address.isUnresolved()) {
            throw new IllegalArgumentException("scenario " + scenario.name() + ": cannot resolve host '"
                    + scenario.url().getHost() + "'");
        }
        int n = laneCount(scenario, mode, options.ioThreads());
        for (int k = 0; k < n; k++) {
            int cap = scenario.maxInFlight() / n + (k < scenario.maxInFlight() % n ? 1 : 0);
            // next() goes round the group, so a scenario's lanes get distinct loops and scenarios spread over them.
            lanes.add(new Lane(this, loops.next(), bootstrap, address, k, n, cap));
        }
    }

    /** How many lanes a scenario runs on (see the class comment). */
    static int laneCount(Scenario s, LoopMode mode, int ioThreads) {
        int byRate = mode == LoopMode.OPEN ? (int) Math.ceil(s.requestsPerSec() / RATE_PER_LANE) : ioThreads;
        return Math.max(1, Math.min(Math.min(ioThreads, s.maxInFlight()), byRate));
    }

    /**
     * Keep-alive connections each lane opens before the schedule: open loop, as many as the lane's requests of
     * {@link GeneratorOptions#preconnect()} (at least 1, at most its in-flight share); closed loop, one per worker.
     */
    int preconnectPerLane(Lane lane) {
        if (mode == LoopMode.CLOSED) {
            return lane.cap();
        }
        int byRate = (int) Math.ceil(scenario.requestsPerSec() / lanes.size() * preconnectSeconds);
        return Math.max(1, Math.min(lane.cap(), byRate));
    }

    /**
     * Opens every lane's {@link #preconnectPerLane} connections and waits for them, at most the scenario's
     * timeout. Returns how many opened; a target that refuses them is not an error here (the schedule will
     * record each refused request), the caller logs it.
     */
    int preconnect() {
        List<CompletableFuture<Integer>> all = new ArrayList<>();
        for (Lane l : lanes) {
            all.add(l.preconnect(preconnectPerLane(l)));
        }
        int opened = 0;
        for (CompletableFuture<Integer> f : all) {
            try {
                opened += f.get(scenario.timeout().toMillis() + 1_000, TimeUnit.MILLISECONDS);
            } catch (TimeoutException | ExecutionException e) {
                // counted as not opened
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while opening connections", e);
            }
        }
        return opened;
    }

    /** The last failure of a connection opened ahead of the schedule, or null. */
    Throwable connectFailure() {
        for (Lane l : lanes) {
            if (l.lastConnectFailure != null) {
                return l.lastConnectFailure;
            }
        }
        return null;
    }

    void start(long startNanos, long endNanos) {
        for (Lane l : lanes) {
            l.start(startNanos, endNanos);
        }
    }

    RequestBody render(long seq) {
        return renderer == null ? RequestBody.EMPTY : renderer.render(seq);
    }

    long nextClosedSeq() {
        return closedSeq.getAndIncrement();
    }

    void countSent() {
        sent.increment();
    }

    void countDropped() {
        dropped.increment();
    }

    long scheduledTotal() {
        return sent.sum() + dropped.sum();
    }

    long sentTotal() {
        return sent.sum();
    }

    long droppedTotal() {
        return dropped.sum();
    }

    /** Requests out now, over every lane. */
    int inFlight() {
        int n = 0;
        for (Lane l : lanes) {
            n += l.inFlight;
        }
        return n;
    }

    /** The most requests out at once, over every lane (each lane's own most, added: exact with one lane). */
    int inFlightMax() {
        int n = 0;
        for (Lane l : lanes) {
            n += l.inFlightMax;
        }
        return n;
    }

    /** True once no lane will start a request again and none is in flight. */
    boolean quiet() {
        for (Lane l : lanes) {
            if (!l.done || l.inFlight > 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * Waits (polling every 2 ms) until every run is {@link #quiet} or {@code deadlineNanos} ({@link System#nanoTime})
     * has passed; true when all are quiet.
     */
    static boolean awaitQuiet(List<ScenarioRun> runs, long deadlineNanos) {
        while (!runs.stream().allMatch(ScenarioRun::quiet)) {
            if (System.nanoTime() - deadlineNanos >= 0) {
                return false;
            }
            LockSupport.parkNanos(2_000_000L);
        }
        return true;
    }

    void close() {
        for (Lane l : lanes) {
            l.close();
        }
    }
}
