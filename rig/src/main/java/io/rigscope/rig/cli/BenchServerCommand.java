package io.rigscope.rig.cli;

import io.rigscope.generator.bench.BenchServer;
import io.rigscope.rig.options.ExitCodes;
import io.rigscope.rig.options.UsageException;
import java.time.Duration;
import java.time.LocalTime;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code rigscope bench server}: the generator benchmark's minimal keep-alive server on its own, so that
 * {@code rigscope bench generator --target URL} (or wrk) can load it from another process or machine. Prints its
 * URL on the first line of stdout, then a line per second on stderr, until Ctrl-C or {@code --duration}.
 */
@Command(name = "server", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Run the generator benchmark's server (Reactor Netty, keep-alive, answers 200 'ok') on its own.",
            "Prints its URL on stdout, then requests served and CPU per second on stderr."})
final class BenchServerCommand implements Callable<Integer> {

    @Option(names = "--host", defaultValue = "127.0.0.1", description = "Address to listen on (default ${DEFAULT-VALUE}).")
    String host;

    @Option(names = "--port", defaultValue = "0", description = "Port (default ${DEFAULT-VALUE}: a free one).")
    int port;

    @Option(names = "--threads", defaultValue = "1", description = "Event loops (default ${DEFAULT-VALUE}).")
    int threads;

    @Option(names = "--duration", defaultValue = "0s", description = "Stop after this long (default ${DEFAULT-VALUE}: run until Ctrl-C).")
    Duration duration;

    @Option(names = "--control", description = {"Read commands on stdin, one a line, and answer each on stdout: "
        + "'open' starts a new count of arrivals (answer 'ok'), 'window' prints 'window COUNT FIRST_NS LAST_NS' (the "
        + "requests since 'open', the first and last arrival in this JVM's nanoTime), 'quit' or the end of stdin "
        + "stops the server. 'bench generator --vs-peers' drives its server this way."})
    boolean control;

    @Override
    public Integer call() throws Exception {
        if (port < 0 || port > 65535) {
            throw new UsageException("--port must be 0-65535, was " + port);
        }
        if (threads < 1) {
            throw new UsageException("--threads must be >= 1, was " + threads);
        }
        Duration runFor = duration;
        CountDownLatch stop = new CountDownLatch(1);
        Thread hook = new Thread(stop::countDown, "rig-bench-server-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        try (BenchServer server = new BenchServer(host, port, threads)) {
            System.out.println(server.url());
            System.out.flush();
            if (control) {
                Thread reader = new Thread(() -> control(server, stop), "rig-bench-server-control");
                reader.setDaemon(true);
                reader.start();
            }
            long end = runFor.isZero() ? Long.MAX_VALUE : System.nanoTime() + runFor.toNanos();
            long lastServed = 0;
            long lastCpu = server.cpuNanos();
            long lastAt = System.nanoTime();
            while (System.nanoTime() - end < 0) {
                long wait = Math.min(1_000_000_000L, end - System.nanoTime());
                if (stop.await(Math.max(0, wait), TimeUnit.NANOSECONDS)) {
                    break;
                }
                long now = System.nanoTime();
                long served = server.served();
                long cpu = server.cpuNanos();
                double secs = (now - lastAt) / 1e9;
                System.err.printf(Locale.ROOT, "%s bench-server  served %8.0f req/s  cpu %5.1f %%  total %d%n",
                        LocalTime.now().truncatedTo(ChronoUnit.SECONDS), (served - lastServed) / secs,
                        100.0 * (cpu - lastCpu) / (now - lastAt), served);
                lastServed = served;
                lastCpu = cpu;
                lastAt = now;
            }
            System.err.printf("bench-server: stopping after %d request(s)%n", server.served());
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the JVM is exiting (Ctrl-C): the hook already ran
            }
        }
        return ExitCodes.OK;
    }

    /** {@code --control}: answers stdin's commands until 'quit' or its end, then releases {@code stop}. */
    private static void control(BenchServer server, CountDownLatch stop) {
        try (var in = new java.io.BufferedReader(new java.io.InputStreamReader(System.in,
                java.nio.charset.StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                switch (line.strip()) {
                    case "open" -> {
                        server.openWindow();
                        System.out.println("ok");
                    }
                    case "window" -> {
                        BenchServer.Window w = server.window();
                        System.out.println("window " + w.count() + " " + w.firstNanos() + " " + w.lastNanos());
                    }
                    case "quit" -> {
                        return;
                    }
                    default -> System.out.println("error unknown command '" + line.strip() + "' (open, window, quit)");
                }
                System.out.flush();
            }
        } catch (java.io.IOException e) {
            System.err.println("bench-server: stdin: " + e.getMessage());
        } finally {
            stop.countDown();
        }
    }
}
