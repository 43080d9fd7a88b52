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
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import reactor.core.scheduler.NonBlocking;

/**
 * The generator's client event loops (native epoll where available, NIO otherwise) and the connection
 * bootstrap that goes with them: TCP_NODELAY, pooled direct buffers, a connect timeout. The loop threads are
 * marked {@link NonBlocking}, as Reactor's own are, so BlockHound (in the tests) reports any blocking call on
 * them.
 */
public final class ClientLoops {

    private final EventLoopGroup group;
    private final Class<? extends SocketChannel> channelClass;
    private final AtomicInteger busyPollers;

    private ClientLoops(EventLoopGroup group, Class<? extends SocketChannel> channelClass, AtomicInteger busyPollers) {
        this.group = group;
        this.channelClass = channelClass;
        this.busyPollers = busyPollers;
    }

    private static final ConcurrentHashMap<Integer, ClientLoops> SHARED = new ConcurrentHashMap<>();

    /**
     * The process-wide client loops with {@code threads} threads ({@code rig-gen-http-N}), created on first use
     * and kept for the life of the JVM (daemon threads, idle between runs), as Reactor Netty keeps its global
     * loop resources. Every run of the generator uses them rather than loops of its own: a new event-loop
     * thread enters its run loop in the interpreter, and shutting a group down deoptimized the loop code every
     * other loop was running, which stalled the first ~50 ms of each run.
     */
    public static ClientLoops shared(int threads) {
        return SHARED.computeIfAbsent(threads, n -> create("rig-gen-http", n));
    }

    /** {@code threads} event loops named {@code prefix-N} (daemon threads). */
    private static ClientLoops create(String prefix, int threads) {
        boolean epoll = Epoll.isAvailable();
        AtomicInteger busyPollers = new AtomicInteger();
        // Netty's default strategy (poll without blocking when tasks wait, else block in the selector), except
        // that while any run asked for busy polling the loops never block.
        SelectStrategyFactory strategy = () -> (selectNow, hasTasks) ->
                hasTasks || busyPollers.get() > 0 ? selectNow.get() : SelectStrategy.SELECT;
        IoHandlerFactory io = epoll ? EpollIoHandler.newFactory(0, strategy)
                : NioIoHandler.newFactory(SelectorProvider.provider(), strategy);
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(threads, new NonBlockingThreadFactory(prefix), io);
        return new ClientLoops(group, epoll ? EpollSocketChannel.class : NioSocketChannel.class, busyPollers);
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

    /** Daemon event-loop threads {@code prefix-N}, marked non-blocking. */
    private static final class NonBlockingThreadFactory implements ThreadFactory {
        private final String prefix;
        private final AtomicInteger next = new AtomicInteger();

        NonBlockingThreadFactory(String prefix) {
            this.prefix = prefix;
        }

        @Override
        public Thread newThread(Runnable r) {
            Thread t = new LoopThread(r, prefix + "-" + next.incrementAndGet());
            t.setDaemon(true);
            return t;
        }
    }

    private static final class LoopThread extends FastThreadLocalThread implements NonBlocking {
        LoopThread(Runnable r, String name) {
            super(r, name);
        }
    }
}
