package io.rigscope.generator;

import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;
import reactor.blockhound.BlockHound;

/**
 * Installs BlockHound when the test JVM's launcher session opens, before any test starts a Reactor or Netty
 * thread: every test of this module then fails on a blocking call on a non-blocking thread. (Installing it
 * later, while Reactor's threads are parked, breaks those threads.)
 */
public final class BlockHoundSession implements LauncherSessionListener {

    @Override
    public void launcherSessionOpened(LauncherSession session) {
        BlockHound.install();
    }
}
