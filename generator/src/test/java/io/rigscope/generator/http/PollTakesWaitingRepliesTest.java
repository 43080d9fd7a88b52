package io.rigscope.generator.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link ClientLoops#pollUntil}: a loop told to poll sleeps to its deadline only when nothing is waiting on its
 * sockets; a reply that is already there when it would go to sleep is taken at once (the adaptive wake policy's
 * batched wakes: a loop that has fallen behind does not give its CPU up at every wake while replies wait).
 */
@Tag("it")
class PollTakesWaitingRepliesTest {

    @Test
    void aLoopToldToPollTakesAReplyAlreadyWaitingInsteadOfSleepingToItsDeadline() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             ClientLoops loops = ClientLoops.open(1)) {
            CountDownLatch read = new CountDownLatch(1);
            AtomicLong pollsBefore = new AtomicLong(-1);
            AtomicLong pollsAtRead = new AtomicLong(-1);
            Channel channel = loops.bootstrap(Duration.ofSeconds(5)).handler(new ChannelInboundHandlerAdapter() {
                @Override
                public void channelRead(ChannelHandlerContext ctx, Object msg) {
                    ReferenceCountUtil.release(msg);
                    pollsAtRead.set(loops.polls());
                    // the earliest deadline wins: the loop no longer waits for the long one
                    ClientLoops.pollUntil(System.nanoTime());
                    read.countDown();
                }
            }).connect(server.getLocalSocketAddress()).syncUninterruptibly().channel();
            try (Socket peer = server.accept()) {
                AtomicBoolean written = new AtomicBoolean();
                CountDownLatch busy = new CountDownLatch(1);
                // the loop is busy with a task while the reply arrives; the task ends by telling it to poll for a
                // minute, so the reply is already waiting when the loop would go to sleep
                channel.eventLoop().execute(() -> {
                    busy.countDown();
                    while (!written.get()) {
                        // busy (BlockHound, in the tests, counts Thread.onSpinWait as blocking)
                        continue;
                    }
                    pollsBefore.set(loops.polls());
                    ClientLoops.pollUntil(System.nanoTime() + TimeUnit.MINUTES.toNanos(1));
                });
                assertThat(busy.await(20, TimeUnit.SECONDS)).isTrue();
                OutputStream out = peer.getOutputStream();
                out.write("HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50)); // loopback: the bytes are in the socket by then
                written.set(true);
                assertThat(read.await(20, TimeUnit.SECONDS))
                        .as("the reply was read before the minute's poll ended").isTrue();
                // and without a poll's sleep first: the loop took it instead of giving its CPU up
                assertThat(pollsAtRead.get()).as("poll sleeps before the waiting reply was read")
                        .isEqualTo(pollsBefore.get());
            } finally {
                channel.close().syncUninterruptibly();
            }
        }
    }
}
