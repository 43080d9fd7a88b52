package io.rigscope.localenv.kafka;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

/**
 * The detached broker's process ({@link DetachedBroker} starts it): runs an {@link EmbeddedKafka} on a data
 * directory and stops it once no live lease ({@link BrokerLeases}) has been held for the idle period, or at
 * SIGTERM ({@code rigscope broker stop}). Its stdout and stderr are {@code <dataDir>/broker.log}.
 *
 * <p>Arguments: {@code --data-dir D --port P --idle-stop-ms MS [--same-port]}. With {@code --same-port} (a broker
 * started again after it died) it takes port P or, after a few tries, any free port; without it P falls back to a
 * free port when busy, as {@link EmbeddedKafka#PREFERRED_PORT} does.
 *
 * <p>Exit 0 after an idle stop, 1 when the broker did not start (one line {@value #FAILED}REASON on stderr), 2 for
 * bad arguments.
 */
public final class BrokerMain {

    /** The prefix of the line a failed start writes to stderr, read back by the command that started it. */
    static final String FAILED = "rigscope-broker: FAILED: ";

    private static final Duration TICK = Duration.ofSeconds(1);
    private static final int SAME_PORT_TRIES = 5;

    private BrokerMain() {
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    static int run(String[] args) {
        Path dataDir = null;
        int port = EmbeddedKafka.PREFERRED_PORT;
        Duration idleStop = DetachedBroker.DEFAULT_IDLE_STOP;
        boolean samePort = false;
        try {
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--data-dir" -> dataDir = Path.of(args[++i]);
                    case "--port" -> port = Integer.parseInt(args[++i]);
                    case "--idle-stop-ms" -> idleStop = Duration.ofMillis(Long.parseLong(args[++i]));
                    case "--same-port" -> samePort = true;
                    default -> throw new IllegalArgumentException("unknown argument " + args[i]);
                }
            }
            if (dataDir == null) {
                throw new IllegalArgumentException("--data-dir is required");
            }
        } catch (RuntimeException e) {
            System.err.println("rigscope-broker: " + e.getMessage());
            return 2;
        }
        EmbeddedKafka kafka;
        try {
            kafka = start(dataDir, port, samePort);
        } catch (RuntimeException e) {
            System.err.println(FAILED + e.getMessage());
            return 1;
        }
        long pid = ProcessHandle.current().pid();
        Path dir = dataDir;
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            kafka.close();
            BrokerState.delete(dir);
        }, "rigscope-broker-stop"));
        System.out.printf("%s rigscope-broker: running at %s (pid %d, data %s); stops itself %d s after the last "
                + "lease ends%n", Instant.now(), kafka.bootstrap(), pid, dataDir, idleStop.toSeconds());
        idleLoop(dataDir, kafka, pid, idleStop);
        return 0;
    }

    private static EmbeddedKafka start(Path dataDir, int port, boolean samePort) {
        if (!samePort) {
            return EmbeddedKafka.start(dataDir, port, true);
        }
        for (int tries = 1; ; tries++) {
            try {
                return EmbeddedKafka.start(dataDir, port, false);
            } catch (IllegalStateException e) {
                if (tries >= SAME_PORT_TRIES || !String.valueOf(e.getMessage()).contains("Address already in use")) {
                    System.out.println("rigscope-broker: port " + port + " stays busy; taking another (clients of "
                            + "the old port cannot follow)");
                    return EmbeddedKafka.start(dataDir, 0, true);
                }
                DetachedBroker.sleep(Duration.ofSeconds(2));
            }
        }
    }

    /** Returns once the broker has been without a live lease for {@code idleStop}, after stopping it. */
    private static void idleLoop(Path dataDir, EmbeddedKafka kafka, long pid, Duration idleStop) {
        BrokerLeases leases = new BrokerLeases(dataDir);
        long startedMs = System.currentTimeMillis();
        long idleSinceMs = startedMs;
        while (true) {
            long nowMs = System.currentTimeMillis();
            boolean held = !leases.live().isEmpty();
            idleSinceMs = held ? -1 : idleSinceMs < 0 ? nowMs : idleSinceMs;
            try {
                new BrokerState(pid, startedMs, idleStop, idleSinceMs).write(dataDir);
            } catch (IOException e) {
                System.err.println("rigscope-broker: cannot write " + BrokerState.FILE_NAME + ": " + e);
            }
            if (idleSinceMs >= 0 && nowMs - idleSinceMs >= idleStop.toMillis()) {
                boolean stopped = DetachedBroker.underLock(dataDir, () -> {
                    if (!leases.live().isEmpty()) {
                        return false; // a command took a lease in the meantime
                    }
                    System.out.printf("%s rigscope-broker: no lease for %d s: stopping%n", Instant.now(),
                            idleStop.toSeconds());
                    kafka.close(); // deletes the bootstrap file
                    BrokerState.delete(dataDir);
                    return true;
                });
                if (stopped) {
                    return;
                }
                idleSinceMs = -1;
            }
            DetachedBroker.sleep(TICK);
        }
    }
}
