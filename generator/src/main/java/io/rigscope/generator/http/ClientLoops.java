package io.rigscope.generator.http;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SelectStrategy;
import io.netty.channel.SelectStrategyFactory;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.FastThreadLocalThread;
import java.nio.channels.spi.SelectorProvider;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import reactor.core.scheduler.NonBlocking;

/**
 * The generator's client event loops (native epoll where available, NIO otherwise) and the connection
 * bootstrap that goes with them: TCP_NODELAY, pooled direct buffers, a connect timeout. The loop threads are
 * marked {@link NonBlocking}, as Reactor's own are, so BlockHound (in the tests) reports any blocking call on
 * them, and each sets its Linux timer slack to 1 µs as it starts ({@link TimerSlack}), so that its timed sleeps
 * end on time.
 */
public final class ClientLoops implements AutoCloseable {

    private final EventLoopGroup group;
    private final Class<? extends SocketChannel> channelClass;
    private final AtomicInteger busyPollers;
    /** The loop threads, as they start (a loop starts its thread on its first task). */
    private final List<LoopThread> threads;
    private final int count;
    /** True once a run has warmed the generator's engine on these loops ({@link #claimWarmup}). */
    private final java.util.concurrent.atomic.AtomicBoolean warmed = new java.util.concurrent.atomic.AtomicBoolean();

    private ClientLoops(EventLoopGroup group, Class<? extends SocketChannel> channelClass, AtomicInteger busyPollers,
                        List<LoopThread> threads, int count) {
        this.group = group;
        this.channelClass = channelClass;
        this.busyPollers = busyPollers;
        this.threads = threads;
        this.count = count;
    }

    /**
     * Opens {@code threads} client event loops ({@code rig-gen-http-N}, daemon threads, idle between runs). The caller
     * owns them: it hands them to every run it makes ({@code GeneratorOptions.withClientLoops}) and closes them after
     * the last. Keep one set for all the runs of a process rather than a set per run: a new event-loop thread enters
     * its run loop in the interpreter, and shutting a group down deoptimized the loop code every other loop was
     * running, which stalled the first ~50 ms of each run (docs/generator.md "Where a request's CPU goes").
     */
    public static ClientLoops open(int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be >= 1, was " + threads);
        }
        return create("rig-gen-http", threads);
    }

    /**
     * True for the first caller only: that run warms the generator's engine (its own throwaway load, never the
     * target's) on these loops; later runs on the same loops find the code compiled and skip it. A run's warm-up is
     * ~4,000 requests and a throwaway server started and stopped, a fixed cost per run that a process making many
     * runs (a series' repeats, a bench's steps) paid again and again (docs/generator.md "Where a request's CPU goes").
     */
    public boolean claimWarmup() {
        return warmed.compareAndSet(false, true);
    }

    /** How many event loops. */
    public int threads() {
        return count;
    }

    /**
     * Shuts the loops down and waits (up to 5 s) until their threads have ended; connections still open are closed.
     * Closing twice does nothing. Not from one of these loops' own threads.
     */
    @Override
    public void close() {
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
    }

    /** {@code threads} event loops named {@code prefix-N} (daemon threads). */
    private static ClientLoops create(String prefix, int threads) {
        boolean epoll = Epoll.isAvailable();
        AtomicInteger busyPollers = new AtomicInteger();
        // Netty's default strategy (poll without blocking when tasks wait, else block in the selector), except
        // that while any run asked for busy polling the loops never block, and that a loop told to poll (see
        // pollUntil) sleeps until then and looks at its sockets once, instead of waiting on them; when replies
        // are already waiting as it would go to sleep, it takes them first and keeps its deadline.
        SelectStrategyFactory strategy = () -> (selectNow, hasTasks) -> {
            if (hasTasks || busyPollers.get() > 0) {
                return selectNow.get();
            }
            if (Thread.currentThread() instanceof LoopThread t && t.pollUntil != NO_POLL) {
                long wait = t.pollUntil - System.nanoTime();
                if (wait > 0) {
                    int ready = selectNow.get();
                    if (ready > 0) {
                        return ready;
                    }
                }
                t.pollUntil = NO_POLL;
                if (wait > 0) {
                    sleepToPoll(t, wait);
                }
                return selectNow.get();
            }
            if (Thread.currentThread() instanceof LoopThread t) {
                t.waits++;
            }
            return SelectStrategy.SELECT;
        };
        IoHandlerFactory io = epoll ? EpollIoHandler.newFactory(0, strategy)
                : NioIoHandler.newFactory(SelectorProvider.provider(), strategy);
        NonBlockingThreadFactory factory = new NonBlockingThreadFactory(prefix);
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(threads, factory, io);
        return new ClientLoops(group, epoll ? EpollSocketChannel.class : NioSocketChannel.class, busyPollers,
                factory.threads, threads);
    }

    /**
     * Makes the loops poll without ever blocking until the returned handle is closed: each loop then uses a
     * whole core, and neither a response nor a due request waits for the kernel to wake the loop (at 20,000
     * req/s send lag p99 fell from ~0.4-1 ms to 0.07 ms; see docs/generator.md). Runs may overlap; the loops
     * block again once every handle is closed.
     */
    public Release busyPoll() {
        busyPollers.incrementAndGet();
        AtomicInteger once = new AtomicInteger();
        return () -> {
            if (once.getAndIncrement() == 0) {
                busyPollers.decrementAndGet();
            }
        };
    }

    /**
     * On one of these loops' threads: instead of waiting on its sockets until its next task, the loop sleeps
     * until {@code deadlineNanos} ({@code System.nanoTime()}) and then looks at the sockets once, taking every
     * reply that arrived meanwhile. A reply then never has to wake the loop: the target's write does not wake
     * a thread on another CPU, and the loop is woken by its own timer. Replies wait up to the sleep, so a caller
     * asks for it only when its next task is due soon. Tasks submitted from other threads during the sleep
     * wait for its end too. The earliest deadline asked for before the loop next waits wins. The loop sleeps only
     * when nothing is waiting on its sockets: replies already there (a loop that fell behind) are taken at once,
     * and the deadline stays for the loop's next look, so a loop that is behind does not give its CPU up at every
     * wake while replies wait. Elsewhere, does nothing.
     */
    public static void pollUntil(long deadlineNanos) {
        if (Thread.currentThread() instanceof LoopThread t && (t.pollUntil == NO_POLL || deadlineNanos - t.pollUntil < 0)) {
            t.pollUntil = deadlineNanos;
        }
    }

    /**
     * On one of these loops' threads: counts one wake of an open-loop scheduler (a lane's tick), for
     * {@link #schedulerWakes}. Elsewhere, does nothing.
     */
    public static void countSchedulerWake() {
        if (Thread.currentThread() instanceof LoopThread t) {
            t.schedulerWakes++;
        }
    }

    /** How many times open-loop schedulers have woken on these loops (each thread counts its own; approximate). */
    public long schedulerWakes() {
        long n = 0;
        for (LoopThread t : threads) {
            n += t.schedulerWakes;
        }
        return n;
    }

    /**
     * How many times the loop threads have gone to sleep, each ended by a wake: waits on their sockets and timers
     * (epoll_wait or a selector's select, which may also return at once) plus sleeps in {@link #pollUntil}
     * (each thread counts its own; approximate).
     */
    public long sleeps() {
        long n = 0;
        for (LoopThread t : threads) {
            n += t.waits + t.polls;
        }
        return n;
    }

    /** How many times the loop threads have slept in {@link #pollUntil} (each thread counts its own; approximate). */
    public long polls() {
        long n = 0;
        for (LoopThread t : threads) {
            n += t.polls;
        }
        return n;
    }

    public EventLoopGroup group() {
        return group;
    }

    /** "epoll" or "nio". */
    public String transport() {
        return channelClass == EpollSocketChannel.class ? "epoll" : "nio";
    }

    /** A bootstrap template for connections with this connect timeout; clone it per connection. */
    public Bootstrap bootstrap(Duration connectTimeout) {
        return new Bootstrap()
                .group(group)
                .channel(channelClass)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.SO_KEEPALIVE, true)
                .option(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, connectTimeout.toMillis()));
    }


    /** Ends what it was returned for; closing twice does nothing. */
    public interface Release extends AutoCloseable {
        @Override
        void close();
    }

    /** Daemon event-loop threads {@code prefix-N}, marked non-blocking, each with a 1 µs timer slack. */
    private static final class NonBlockingThreadFactory implements ThreadFactory {
        private final String prefix;
        private final AtomicInteger next = new AtomicInteger();
        final List<LoopThread> threads = new CopyOnWriteArrayList<>();

        NonBlockingThreadFactory(String prefix) {
            this.prefix = prefix;
        }

        @Override
        public Thread newThread(Runnable r) {
            // the loop's timed sleeps end on time, not up to the kernel's default 50 µs slack late (TimerSlack)
            LoopThread t = new LoopThread(() -> {
                TimerSlack.lower(TimerSlack.CLIENT_LOOP_NANOS);
                r.run();
            }, prefix + "-" + next.incrementAndGet());
            t.setDaemon(true);
            threads.add(t);
            return t;
        }
    }

    private static final long NO_POLL = Long.MIN_VALUE;

    /**
     * The one deliberate sleep on a loop thread: at most the poll interval (<= 1 ms), only when nothing else
     * is due before the lane's next request. (The tests' BlockHound allows this method and nothing else.)
     */
    private static void sleepToPoll(LoopThread t, long nanos) {
        t.polls++;
        LockSupport.parkNanos(nanos);
    }

    private static final class LoopThread extends FastThreadLocalThread implements NonBlocking {
        /** {@link #pollUntil}'s deadline, or {@link #NO_POLL}; read and written by this thread only. */
        long pollUntil = NO_POLL;
        /** Sleeps taken for {@link #pollUntil}; written by this thread only. */
        volatile long polls;
        /** Blocking waits on the sockets (the strategy said SELECT); written by this thread only. */
        volatile long waits;
        /** Open-loop scheduler wakes ({@link #countSchedulerWake}); written by this thread only. */
        volatile long schedulerWakes;

        LoopThread(Runnable r, String name) {
            super(r, name);
        }
    }
}
