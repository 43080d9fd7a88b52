package io.rigscope.rig.generate;

import io.rigscope.localenv.kafka.EmbeddedKafka;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * An embedded broker in a JVM of its own, so a test can freeze it (SIGSTOP: its TCP connections stay open, it answers
 * nothing), continue it (SIGCONT) and stop it (SIGTERM: a shutdown hook closes the broker, as Ctrl-C would).
 * {@link #main} prints {@code ready BOOTSTRAP} once the broker accepts connections.
 */
final class BrokerProcess implements AutoCloseable {

    private final Process process;
    final String bootstrap;

    private BrokerProcess(Process process, String bootstrap) {
        this.process = process;
        this.bootstrap = bootstrap;
    }

    /** Child main: {@code DATA_DIR PORT}. */
    public static void main(String[] args) throws InterruptedException {
        EmbeddedKafka kafka = EmbeddedKafka.start(Path.of(args[0]), Integer.parseInt(args[1]));
        Runtime.getRuntime().addShutdownHook(new Thread(kafka::close));
        System.out.println("ready " + kafka.bootstrap());
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }

    /** Starts the child and waits (at most 90 s) until its broker accepts connections. */
    static BrokerProcess start(Path dataDir, int port, Path log) throws IOException, InterruptedException {
        List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx512m",
                "-cp", System.getProperty("java.class.path"), BrokerProcess.class.getName(), dataDir.toString(),
                String.valueOf(port));
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        var ready = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    if (line.startsWith("ready ")) {
                        return line.substring(6);
                    }
                }
                return null;
            } catch (IOException e) {
                return null;
            }
        });
        try {
            String bootstrap = ready.get(90, TimeUnit.SECONDS);
            if (bootstrap == null) {
                throw new IllegalStateException("the broker process ended before it was ready (log " + log + ")");
            }
            return new BrokerProcess(p, bootstrap);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            p.destroyForcibly();
            throw new IllegalStateException("the broker process was not ready in 90 s (log " + log + ")", e);
        }
    }

    void signal(String name) throws IOException, InterruptedException {
        if (!new ProcessBuilder("kill", "-" + name, String.valueOf(process.pid())).start().waitFor(10, TimeUnit.SECONDS)) {
            throw new IllegalStateException("kill -" + name + " did not return");
        }
    }

    /** SIGTERM and wait for the broker's shutdown (at most 60 s); returns how long it took, ms. */
    long stop() throws IOException, InterruptedException {
        long t0 = System.nanoTime();
        signal("TERM");
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the broker process did not stop in 60 s");
        }
        return (System.nanoTime() - t0) / 1_000_000;
    }

    @Override
    public void close() {
        try {
            signal("CONT");
        } catch (IOException | InterruptedException | IllegalStateException e) {
            // best effort: it is killed below
        }
        process.destroyForcibly();
    }
}
