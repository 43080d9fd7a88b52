package io.rigscope.generator;

import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;
import reactor.blockhound.BlockHound;

/**
 * Installs BlockHound when the test JVM's launcher session opens, before any test starts a Reactor or Netty
 * thread: every test of this module then fails on a blocking call on a non-blocking thread. (Installing it
 * later, while Reactor's threads are parked, breaks those threads.)
 *
 * <p>One allowance: Netty 4.2's default allocator takes a short internal {@code StampedLock} when two threads
 * grow the same magazine group at once (seen when a test server answers from Reactor's parallel scheduler while
 * its event loop allocates). That lock is the allocator's own, not a blocking call of the code under test.
 * And one of the generator's own: {@code ClientLoops.sleepToPoll}, the bounded sleep of a client loop asked to
 * poll ({@code --poll-us}), and {@code TimerSlack.lower}, the one write of its timer slack as a loop thread starts.
 */
public final class BlockHoundSession implements LauncherSessionListener {

    @Override
    public void launcherSessionOpened(LauncherSession session) {
        BlockHound.install(builder -> builder
                .allowBlockingCallsInside("io.netty.buffer.AdaptivePoolingAllocator$MagazineGroup", "tryExpandMagazines")
                .allowBlockingCallsInside("io.netty.buffer.AdaptivePoolingAllocator$Magazine", "free")
                .allowBlockingCallsInside("io.rigscope.generator.http.ClientLoops", "sleepToPoll")
                .allowBlockingCallsInside("io.rigscope.generator.http.TimerSlack", "lower"));
    }
}
