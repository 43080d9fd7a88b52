package io.rigscope.localenv.kafka;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Keeps a detached broker alive for one command: every {@link #PERIOD} it checks that the broker's process lives,
 * and when it died (killed, crashed) starts it again on the same data directory and port ({@link DetachedBroker
 * #findOrStart}, under the directory's lock, so of several commands watching one broker a single one restarts it),
 * with one console line when it finds it dead and one when it is back. Also keeps this process's lease (a lease
 * file deleted by hand is taken again).
 *
 * <p>One daemon thread; {@link #close} stops it and drops the lease.
 */
final class BrokerWatch implements AutoCloseable {

    static final Duration PERIOD = Duration.ofMillis(500);
    /** After a start that failed, the next try comes this much later (one console line per try). */
    static final Duration RETRY_AFTER_FAILURE = Duration.ofSeconds(5);

    private final Thread thread;
    private final long holderPid;
    private final java.nio.file.Path dataDir;
    private volatile boolean closed;

    private BrokerWatch(DetachedBroker.Running first, long holderPid, Consumer<String> console) {
        this.holderPid = holderPid;
        this.dataDir = first.dataDir();
        this.thread = new Thread(() -> watch(first, console), "rigscope-broker-watch");
        this.thread.setDaemon(true);
    }

    static BrokerWatch start(DetachedBroker.Running broker, long holderPid, Consumer<String> console) {
        BrokerWatch w = new BrokerWatch(Objects.requireNonNull(broker, "broker"), holderPid,
                Objects.requireNonNull(console, "console"));
        w.thread.start();
        return w;
    }

    private void watch(DetachedBroker.Running first, Consumer<String> console) {
        DetachedBroker.Running current = first;
        BrokerLeases leases = new BrokerLeases(dataDir);
        while (!closed) {
            try {
                Thread.sleep(PERIOD.toMillis());
            } catch (InterruptedException e) {
                return; // closing
            }
            if (closed) {
                return;
            }
            boolean alive = ProcessHandle.of(current.pid()).map(ProcessHandle::isAlive).orElse(false);
            if (alive) {
                leases.take(holderPid);
                continue;
            }
            long downNs = System.nanoTime();
            console.accept("kafka: the embedded broker at " + current.bootstrap() + " (pid " + current.pid()
                    + ") is gone; starting it again on " + dataDir + " (records wait in the producers' buffers)");
            try {
                DetachedBroker.Running again = DetachedBroker.findOrStart(dataDir, current.idleStop(), holderPid);
                console.accept(String.format(java.util.Locale.ROOT,
                        "kafka: embedded broker %s at %s (pid %d) after %.1f s%s",
                        again.started() ? "started again" : "running again (another command started it)",
                        again.bootstrap(), again.pid(), (System.nanoTime() - downNs) / 1e9,
                        again.bootstrap().equals(current.bootstrap()) ? ""
                                : "; on another port: this command's clients cannot reach it"));
                current = again;
            } catch (RuntimeException e) {
                console.accept("kafka: " + EmbeddedKafka.causeInOneLine(e) + "; trying again in "
                        + RETRY_AFTER_FAILURE.toSeconds() + " s");
                try {
                    Thread.sleep(RETRY_AFTER_FAILURE.toMillis());
                } catch (InterruptedException closing) {
                    return;
                }
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        thread.interrupt();
        try {
            thread.join(Duration.ofSeconds(5).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        new BrokerLeases(dataDir).drop(holderPid);
    }
}
