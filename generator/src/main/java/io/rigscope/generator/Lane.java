package io.rigscope.generator;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.ChannelFuture;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.ScheduledFuture;
import io.rigscope.generator.body.RequestBody;
import io.rigscope.generator.http.ClientLoops;
import io.rigscope.generator.http.HttpConnection;
import io.rigscope.generator.plan.LoopMode;
import io.rigscope.generator.plan.ResponseCheck;
import io.rigscope.model.wire.ErrorKind;
import io.rigscope.model.wire.Sample;
import io.rigscope.model.wire.ServerTiming;
import io.rigscope.model.wire.ServerTimingParser;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One scenario's share of the load on one event loop: its schedule (open loop: requests {@code index},
 * {@code index + stride}, ...; closed loop: its workers), its keep-alive connections and its requests in
 * flight. Everything a lane does runs on its event loop: the scheduler is a task the loop runs at each
 * intended start, so a request due is written by the same thread, with no hand-off, the moment it is due.
 *
 * <p>Fields read by other threads (the sample batcher's watermark, the health monitor, the run) are volatile and
 * written only by the loop. The watermark argument: a request is counted (open loop: before
 * {@link #decidedBeforeNanos} moves past its start; closed loop: inside a {@link #stamping} section) and its
 * sample is queued inside a {@code stamping} section that reads the end time after raising the flag; see
 * {@link SampleBatcher#closeableBeforeUs}.
 */
final class Lane implements HttpConnection.Listener {

    /** Response heads longer than this fail the request (a malformed response). */
    private static final int MAX_HEAD_BYTES = 64 * 1024;
    /** Most idle connections one sweep (every 10 ms) closes: 800/s. */
    private static final int IDLE_CLOSES_PER_SWEEP = 8;

    private final ScenarioRun run;
    private final EventLoop loop;
    private final Bootstrap bootstrap;
    private final InetSocketAddress address;
    private final int index;
    private final int stride;
    private final int cap;
    private final long timeoutNanos;
    private final long minWakeGapNanos;
    private final ArrayDeque<HttpConnection> idle = new ArrayDeque<>();
    /** Reads Server-Timing headers; this lane's loop only. */
    private final ServerTimingParser timingParser = new ServerTimingParser();
    /** The timing of the response being ended ({@link #onResponse} to {@link #end}); NONE otherwise. */
    private ServerTiming timing = ServerTiming.NONE;
    private final List<HttpConnection> connections = new ArrayList<>();
    private final Runnable tick = this::tick;
    private final OpenLoopTicker.Starter startOpen = this::startOpen;
    private OpenLoopTicker ticker;
    private long startNanos;
    private long endNanos;
    private boolean scheduleOver;
    private ScheduledFuture<?> sweeper;
    private long countsSec = Long.MIN_VALUE;
    private SecondCounts counts;
    private CompletableFuture<Integer> preconnected;
    private int preconnectLeft;
    private int preconnectOpened;

    /** Open loop: every request of this lane due before this nanoTime has been counted. */
    volatile long decidedBeforeNanos = Long.MIN_VALUE;
    /** True while the loop reads an end (or a closed-loop start) from the clock and queues/counts it. */
    volatile boolean stamping;
    /** Requests out now (written by the loop only). */
    volatile int inFlight;
    /** The most requests this lane had out at once (written by the loop only). */
    volatile int inFlightMax;
    /** The intended start of the oldest request in flight at the last sweep, or 0 when none. */
    volatile long oldestStartNanos;
    /** The last failure of a connection opened ahead of the schedule, for the run to report. */
    volatile Throwable lastConnectFailure;
    /** True once this lane will start no more requests. */
    volatile boolean done;

    /**
     * @param index  this lane's first request of the schedule
     * @param stride how many lanes share the scenario (this lane takes every stride-th request)
     * @param cap    this lane's share of the scenario's in-flight cap (open loop) or its workers (closed loop)
     */
    Lane(ScenarioRun run, EventLoop loop, Bootstrap bootstrap, InetSocketAddress address, int index, int stride,
         int cap) {
        this.run = run;
        this.loop = loop;
        this.bootstrap = bootstrap;
        this.address = address;
        this.index = index;
        this.stride = stride;
        this.cap = cap;
        this.timeoutNanos = run.scenario.timeout().toNanos();
        this.minWakeGapNanos = run.minWakeGapNanos;
    }

    /** This lane's share of the in-flight cap (closed loop: its workers). */
    int cap() {
        return cap;
    }

    /** Starts the lane at {@code startNanos}; it starts no request due at or after {@code endNanos}. Any thread. */
    void start(long startNanos, long endNanos) {
        this.startNanos = startNanos;
        this.endNanos = endNanos;
        this.ticker = new OpenLoopTicker(run.schedule, startNanos, endNanos, index, stride, minWakeGapNanos,
                run.maxSendLagNanos);
        this.decidedBeforeNanos = startNanos;
        loop.execute(() -> {
            sweeper = loop.scheduleAtFixedRate(this::sweep, 10, 10, TimeUnit.MILLISECONDS);
            if (run.mode == LoopMode.OPEN) {
                loop.schedule(tick, startNanos - System.nanoTime(), TimeUnit.NANOSECONDS);
            } else {
                loop.schedule(() -> {
                    for (int w = 0; w < cap; w++) {
                        startClosed();
                    }
                    if (cap == 0) {
                        finishSchedule();
                    }
                }, startNanos - System.nanoTime(), TimeUnit.NANOSECONDS);
            }
        });
    }

    /**
     * Opens {@code n} keep-alive connections before the schedule starts, so its first requests find them idle
     * instead of each opening one while the next are already due. Any thread; the future completes on the
     * loop with how many opened, once every attempt has ended (a failed one is logged by the caller).
     */
    CompletableFuture<Integer> preconnect(int n) {
        CompletableFuture<Integer> done = new CompletableFuture<>();
        loop.execute(() -> {
            if (n <= 0) {
                done.complete(0);
                return;
            }
            preconnectLeft = n;
            preconnectOpened = 0;
            preconnected = done;
            for (int i = 0; i < n; i++) {
                HttpConnection c = newConnection();
                connect(c);
            }
        });
        return done;
    }

    private void preconnectEnded(boolean opened) {
        if (preconnected == null) {
            return;
        }
        preconnectOpened += opened ? 1 : 0;
        if (--preconnectLeft == 0) {
            CompletableFuture<Integer> f = preconnected;
            preconnected = null;
            f.complete(preconnectOpened);
        }
    }

    /**
     * Open loop: starts every request due by now, then sleeps until the wake the policy asks for
     * ({@link OpenLoopTicker}: adaptive, the intended start of the last request due within the lag budget of the
     * next, so a wake sends a small burst, each stamped t1 when written; precise, the next intended start). No
     * request is ever sent before its intended start. When the next wake gathers two or more requests, or polling
     * is on ({@code --poll-us}) and the wake is within it, the loop sleeps until then and takes the replies that
     * came meanwhile in one look ({@link ClientLoops#pollUntil}) instead of being woken by each.
     */
    private void tick() {
        ClientLoops.countSchedulerWake();
        boolean more = ticker.tick(System::nanoTime, run.completions::stopping, startOpen);
        decidedBeforeNanos = ticker.nextDueNanos();
        if (!more) {
            finishSchedule();
            return;
        }
        long at = ticker.wakeAtNanos();
        long now = System.nanoTime();
        loop.schedule(tick, at - now, TimeUnit.NANOSECONDS);
        if (ticker.batched() || at - now <= run.pollNanos) {
            ClientLoops.pollUntil(at);
        }
    }

    private void finishSchedule() {
        if (!scheduleOver) {
            scheduleOver = true;
            decidedBeforeNanos = Long.MAX_VALUE;
            done = true;
        }
    }

    private void startOpen(long seq, long t0) {
        SecondCounts c = countsOf(t0);
        c.scheduled.increment();
        if (inFlight >= cap) {
            c.dropped.increment();
            run.countDropped();
            return;
        }
        c.sent.increment();
        run.countSent();
        int out = inFlight + 1;
        inFlight = out;
        if (out > inFlightMax) {
            inFlightMax = out;
        }
        dispatch(seq, t0);
    }

    /** Closed loop: starts the next request now, unless the run is past its end. */
    private void startClosed() {
        if (run.completions.stopping() || System.nanoTime() - endNanos >= 0) {
            finishSchedule();
            return;
        }
        long seq = run.nextClosedSeq();
        stamping = true;
        long t0 = System.nanoTime();
        SecondCounts c = countsOf(t0);
        c.scheduled.increment();
        c.sent.increment();
        run.countSent();
        inFlight = inFlight + 1;
        stamping = false;
        dispatch(seq, t0);
    }

    private SecondCounts countsOf(long t0Nanos) {
        long sec = Math.floorDiv(run.clock.epochUs(t0Nanos), 1_000_000L);
        if (sec != countsSec) {
            counts = run.bySecond.computeIfAbsent(sec, s -> new SecondCounts());
            countsSec = sec;
        }
        return counts;
    }

    private void dispatch(long seq, long t0) {
        RequestBody body = run.render(seq);
        HttpConnection c = idle.pollFirst();
        boolean fresh = c == null;
        if (fresh) {
            c = newConnection();
        }
        Slot slot = slot(c);
        slot.t0Nanos = t0;
        slot.handedNanos = System.nanoTime();
        slot.t1Nanos = 0;
        slot.body = body;
        if (fresh) {
            connect(c);
        } else {
            write(c);
        }
    }

    /** A new connection of this lane, with its slot attached; not yet connecting. */
    private HttpConnection newConnection() {
        HttpConnection c = new HttpConnection(this, MAX_HEAD_BYTES, run.checkBodyCapBytes, run.readServerTiming);
        c.attach(new Slot());
        connections.add(c);
        return c;
    }

    private static Slot slot(HttpConnection c) {
        return (Slot) c.attachment();
    }

    private void connect(HttpConnection c) {
        ChannelFuture f = bootstrap.clone(loop).handler(c).connect(address);
        f.addListener(done -> {
            if (!done.isSuccess()) {
                c.connectFailed(done.cause());
            }
        });
    }

    private void write(HttpConnection c) {
        Slot slot = slot(c);
        slot.t1Nanos = System.nanoTime();
        c.send(run.encoder.encode(c.channel().alloc(), slot.body.bytes()), run.encoder.head());
    }

    @Override
    public void onOpen(HttpConnection c) {
        if (slot(c).body != null) {
            write(c);
        } else {
            slot(c).idleSinceNanos = System.nanoTime();
            idle.addFirst(c);
            preconnectEnded(true);
        }
    }

    @Override
    public void onResponse(HttpConnection c, int status, long bodyBytes, boolean keepAlive) {
        String header = c.serverTiming();
        if (header != null) {
            long before = timingParser.malformed();
            timing = timingParser.parse(header);
            if (timingParser.malformed() != before) {
                run.serverTimingMalformed.add(timingParser.malformed() - before);
            }
        }
        ResponseCheck check = run.check;
        if (check == null) {
            end(c, status, ErrorKind.ofStatus(status), null);
        } else {
            String failure = check.failure(status, c.keptBody(), c.keptBodyBytes(), c.bodyTruncated());
            if (failure == null) {
                end(c, status, ErrorKind.NONE, null);
            } else {
                // a status >= 400 the check does not accept stays 4xx/5xx; any other failure is the check's
                ErrorKind kind = status >= 400 && !check.accepts(status) ? ErrorKind.ofStatus(status) : ErrorKind.CHECK;
                end(c, status, kind, new CheckFailedException(failure));
            }
        }
        release(c, keepAlive);
        nextWorker();
    }

    @Override
    public void onFailure(HttpConnection c, Throwable cause) {
        boolean ended = slot(c).body != null;
        if (ended) {
            end(c, 0, ErrorKinds.of(cause), cause);
        } else if (!c.wasOpened()) {
            lastConnectFailure = cause;
            preconnectEnded(false);
        }
        release(c, false);
        if (ended) {
            nextWorker();
        }
    }

    @Override
    public void onClosed(HttpConnection c) {
        release(c, false);
    }

    /** The connection is free again: back to the idle stack, or forgotten when it closed. */
    private void release(HttpConnection c, boolean keepAlive) {
        if (keepAlive && c.isOpen()) {
            slot(c).idleSinceNanos = System.nanoTime();
            idle.addFirst(c);
        } else {
            connections.remove(c);
            idle.remove(c);
        }
    }

    /** Closed loop: a worker's request ended, so the worker starts its next one (a connection closing while idle is no worker). */
    private void nextWorker() {
        if (run.mode == LoopMode.CLOSED && !scheduleOver) {
            startClosed();
        }
    }

    /** Ends the request on {@code c}: stamps t2, queues its sample (of {@code kind}), frees its slot. */
    private void end(HttpConnection c, int status, ErrorKind kind, Throwable error) {
        Slot slot = slot(c);
        RequestBody body = slot.body;
        slot.body = null;
        stamping = true;
        long t2 = System.nanoTime();
        MicroClock clock = run.clock;
        long t0Us = clock.epochUs(slot.t0Nanos);
        long t2Us = clock.epochUs(t2);
        long t1Us = slot.t1Nanos == 0 ? t2Us : Math.min(Math.max(clock.epochUs(slot.t1Nanos), t0Us), t2Us);
        ServerTiming said = timing;
        timing = ServerTiming.NONE;
        run.completions.collect(new Sample(run.scenario.name(), t0Us, t1Us, t2Us, status, kind, body.batch(),
                body.quantity(), body.bytes().length, said), error);
        inFlight = inFlight - 1;
        stamping = false;
    }

    /**
     * Every 10 ms: ends the requests out longer than the timeout, notes the oldest start in flight, and closes
     * connections idle longer than the idle timeout.
     */
    private void sweep() {
        long now = System.nanoTime();
        long oldest = 0;
        boolean any = false;
        for (int i = connections.size() - 1; i >= 0; i--) {
            HttpConnection c = connections.get(i);
            Slot slot = slot(c);
            if (slot.body == null) {
                continue;
            }
            if (now - slot.handedNanos >= timeoutNanos) {
                end(c, 0, ErrorKind.TIMEOUT, new TimeoutException("no response within " + run.scenario.timeout()));
                c.close();
                connections.remove(i);
                idle.remove(c);
                nextWorker();
            } else if (!any || slot.t0Nanos - oldest < 0) {
                oldest = slot.t0Nanos;
                any = true;
            }
        }
        oldestStartNanos = any ? oldest : 0;
        closeIdle(now);
    }

    /**
     * Closes connections idle for the idle timeout, at most {@link #IDLE_CLOSES_PER_SWEEP} per sweep so that a
     * pool opened ahead of the schedule and never needed is not closed all at once (a stall of the loop and a
     * burst of closes for the server). The idle stack is last-in first-out, so the longest idle are at its
     * bottom and a busy lane keeps reusing the same few at the top.
     */
    private void closeIdle(long now) {
        long limit = run.idleTimeoutNanos;
        if (limit <= 0) {
            return;
        }
        HttpConnection c;
        int closed = 0;
        while (closed++ < IDLE_CLOSES_PER_SWEEP && (c = idle.peekLast()) != null && now - slot(c).idleSinceNanos >= limit) {
            idle.pollLast();
            connections.remove(c);
            c.close();
        }
    }

    /** Closes every connection and stops the sweeper. Any thread; returns at once. */
    void close() {
        loop.execute(() -> {
            if (sweeper != null) {
                sweeper.cancel(false);
            }
            finishSchedule();
            for (HttpConnection c : new ArrayList<>(connections)) {
                c.close();
            }
            connections.clear();
            idle.clear();
        });
    }

    /**
     * The request in flight on one connection (loop-confined, reused for every request of that connection):
     * its body (null when the connection is idle), intended start, hand-off time (the timeout counts from it)
     * and actual send (0 until written), and when the connection last became idle.
     */
    private static final class Slot {
        RequestBody body;
        /** When the connection last became idle (only meaningful while it is). */
        long idleSinceNanos;
        long t0Nanos;
        long handedNanos;
        long t1Nanos;
    }

    /** Why a response failed its scenario's check: the debug log's reason (no stack trace). */
    static final class CheckFailedException extends Exception {
        CheckFailedException(String reason) {
            super("response check: " + reason, null, false, false);
        }
    }
}
