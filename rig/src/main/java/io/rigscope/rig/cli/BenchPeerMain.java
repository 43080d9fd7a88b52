package io.rigscope.rig.cli;

import io.rigscope.benchmarks.peers.RigscopePeer;
import io.rigscope.rig.options.ConsoleLogging;

/**
 * The main class of rigscope's own tool in {@code bench generator --vs-peers} ({@link RigscopePeer}, in a JVM of its
 * own started from the rigscope jar): logs as the rigscope command does, then speaks the peers' line protocol.
 */
public final class BenchPeerMain {

    private BenchPeerMain() {
    }

    public static void main(String[] args) {
        System.setOut(System.err); // nothing may print on the protocol's stdout, the logging set-up's included
        ConsoleLogging.configure();
        RigscopePeer.main(args);
    }
}
