package io.rigscope.rig.cli;

import io.rigscope.localenv.kafka.BrokerLeases;
import io.rigscope.localenv.kafka.BrokerState;
import io.rigscope.localenv.kafka.DetachedBroker;
import io.rigscope.localenv.kafka.KafkaEndpoint;
import io.rigscope.rig.options.Durations;
import io.rigscope.rig.options.ExitCodes;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code rigscope broker start|stop|status}: the detached embedded broker ({@link DetachedBroker}) by hand. Every
 * command that needs Kafka without {@code --bootstrap} starts it too, and none stops it: it stops itself once no
 * command has used it for its idle period ({@code --broker-idle-stop}, default 5m).
 */
@Command(name = "broker", mixinStandardHelpOptions = true,
        description = {"The embedded Kafka broker, a process of its own: start it, stop it at once, or show it "
            + "(address, pid, leases, idle time). Commands start it when they find none and never stop it; it "
            + "stops itself once no command has used it for its idle period."},
        subcommands = {BrokerCommand.Start.class, BrokerCommand.Stop.class, BrokerCommand.Status.class})
final class BrokerCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    /** The data directory option of every subcommand. */
    static final class Dir {
        @Option(names = "--data-dir", paramLabel = "DIR",
                description = "The embedded broker's data directory (default: ~/.rigscope/kafka).")
        Path dataDir;

        Path resolved() {
            return dataDir == null ? KafkaEndpoint.defaultDataDir() : dataDir;
        }
    }

    @Command(name = "start", mixinStandardHelpOptions = true,
            description = "Start the broker on the data directory unless one runs there; print where it runs.")
    static final class Start implements Callable<Integer> {
        @CommandLine.Mixin
        Dir dir = new Dir();

        @Option(names = "--broker-idle-stop", paramLabel = "DURATION", defaultValue = "5m",
                description = "It stops itself this long after the last command using it ends (default: "
                    + "${DEFAULT-VALUE}).")
        Duration idleStop = DetachedBroker.DEFAULT_IDLE_STOP;

        @Override
        public Integer call() {
            Durations.positive("--broker-idle-stop", idleStop);
            long self = ProcessHandle.current().pid();
            long startNs = System.nanoTime();
            DetachedBroker.Running r = DetachedBroker.findOrStart(dir.resolved(), idleStop, self);
            new BrokerLeases(dir.resolved()).drop(self); // the idle clock starts now
            System.out.printf("broker: %s at %s (pid %d, data %s)%s; it stops itself %s after the last command "
                    + "using it ends, or 'rigscope broker stop' (log %s)%n", r.started() ? "started" : "already running",
                    r.bootstrap(), r.pid(), r.dataDir(),
                    r.started() ? String.format(" in %.1f s", (System.nanoTime() - startNs) / 1e9) : "",
                    Durations.text(r.idleStop()), r.logFile());
            return ExitCodes.OK;
        }
    }

    @Command(name = "stop", mixinStandardHelpOptions = true,
            description = "Stop the broker at once, whoever is using it (its data stays).")
    static final class Stop implements Callable<Integer> {
        @CommandLine.Mixin
        Dir dir = new Dir();

        @Override
        public Integer call() {
            Optional<Long> pid = DetachedBroker.stop(dir.resolved(), Duration.ofSeconds(40));
            System.out.println(pid.map(p -> "broker: stopped (pid " + p + ", data " + dir.resolved() + ")")
                    .orElse("broker: none running on " + dir.resolved()));
            return ExitCodes.OK;
        }
    }

    @Command(name = "status", mixinStandardHelpOptions = true,
            description = "Where the broker runs, its pid, the commands holding a lease on it, how long it has been "
                + "idle; exit 1 when none runs.")
    static final class Status implements Callable<Integer> {
        @CommandLine.Mixin
        Dir dir = new Dir();

        @Override
        public Integer call() {
            Path d = dir.resolved();
            Optional<DetachedBroker.Running> running = DetachedBroker.find(d);
            if (running.isEmpty()) {
                System.out.println("broker: none running on " + d);
                return 1;
            }
            DetachedBroker.Running r = running.get();
            List<Long> leases = new BrokerLeases(d).live();
            Optional<BrokerState> state = BrokerState.read(d);
            long nowMs = System.currentTimeMillis();
            System.out.printf("broker: running at %s (pid %d, data %s)%s%n", r.bootstrap(), r.pid(), d,
                    state.map(s -> ", up " + Durations.text(Duration.ofSeconds((nowMs - s.startedMs()) / 1000)))
                            .orElse(""));
            System.out.println("leases: " + (leases.isEmpty() ? "none" : leases.size() + " (pid "
                    + leases.stream().map(String::valueOf).collect(Collectors.joining(", ")) + ")"));
            if (leases.isEmpty() && state.isPresent() && state.get().idleSinceMs() >= 0) {
                Duration idle = Duration.ofSeconds((nowMs - state.get().idleSinceMs()) / 1000);
                Duration left = state.get().idleStop().minus(idle);
                System.out.printf("idle: %s of %s; stops itself in %s%n", Durations.text(idle),
                        Durations.text(state.get().idleStop()),
                        Durations.text(left.isNegative() ? Duration.ZERO : left));
            } else {
                System.out.println("idle: no (in use); stops itself " + Durations.text(r.idleStop())
                        + " after the last lease ends");
            }
            System.out.println("log: " + r.logFile());
            return ExitCodes.OK;
        }
    }
}
