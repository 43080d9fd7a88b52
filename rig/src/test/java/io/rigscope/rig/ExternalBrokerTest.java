package io.rigscope.rig;

import static io.rigscope.rig.cli.RigscopeRun.rigscope;
import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.generator.target.BenchServer;
import io.rigscope.rig.cli.RigscopeRun;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The commands against a broker in another process: a child JVM runs {@code rigscope dashboard}, which starts the
 * embedded broker and keeps it; this JVM's commands reach it with {@code --bootstrap} only, start no broker of
 * their own, and a series goes through it end to end (topics, collect, generate, tail, analyze).
 */
@Tag("it")
class ExternalBrokerTest {

    @Test
    void everyKindOfCommandWorksWithBootstrapAgainstABrokerInAnotherProcess(@TempDir Path dir) throws Exception {
        Path data = dir.resolve("kafka");
        Path log = dir.resolve("child.log");
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m", "-cp", System.getProperty("java.class.path"), Main.class.getName(), "dashboard",
                "--data-dir", data.toString(), "--listen", "127.0.0.1:0")
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            String bootstrap = awaitBroker(data, log, child);
            assertThat(bootstrap).startsWith("127.0.0.1:");

            RigscopeRun topics = rigscope("topics", "--bootstrap", bootstrap);
            assertThat(topics.exit()).as(topics.err()).isZero();
            assertThat(topics.out() + topics.err()).contains("rig.samples");

            RigscopeRun collect = rigscope("collect", "vmstat", "--series", "ext-1", "--duration", "2s",
                    "--bootstrap", bootstrap);
            assertThat(collect.exit()).as(collect.err()).isZero();

            try (BenchServer server = new BenchServer(1)) {
                RigscopeRun generate = rigscope("generate", "--bootstrap", bootstrap, "--url", server.url(),
                        "--method", "GET", "--batch", "0", "--rate", "200", "--duration", "2s", "--series", "ext-1",
                        "--rep", "1");
                assertThat(generate.exit()).as(generate.err()).isZero();
            }

            RigscopeRun tail = rigscope("tail", "rig.ledger", "--series", "ext-1", "--from-beginning", "--no-follow",
                    "--bootstrap", bootstrap);
            assertThat(tail.exit()).as(tail.err()).isZero();
            assertThat(tail.out()).contains("ext-1");

            Path report = dir.resolve("report.json");
            RigscopeRun analyze = rigscope("analyze", "--series", "ext-1", "--replay", "--quiet", "--bootstrap",
                    bootstrap, "--report-json", report.toString());
            assertThat(analyze.exit()).as(analyze.err()).isIn(0, 99);
            assertThat(Files.readString(report)).contains("\"samples\" : 400");

            for (RigscopeRun r : List.of(topics, collect, tail, analyze)) {
                assertThat(r.err()).as("no command started a broker of its own").doesNotContain("kafka: started");
            }
            assertThat(child.isAlive()).as("the broker's process ran throughout").isTrue();
        } finally {
            child.destroy();
            if (!child.waitFor(30, TimeUnit.SECONDS)) {
                child.destroyForcibly();
            }
        }
    }

    private static String awaitBroker(Path data, Path log, Process child) throws Exception {
        long deadline = System.currentTimeMillis() + 90_000;
        Path file = data.resolve("bootstrap");
        while (System.currentTimeMillis() < deadline) {
            if (!child.isAlive()) {
                throw new IllegalStateException("the child rigscope ended: " + read(log));
            }
            if (Files.exists(file) && read(log).contains("dashboard")) {
                return Files.readAllLines(file, StandardCharsets.UTF_8).get(0).strip(); // address, then the pid
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("no broker in the child after 90 s: " + read(log));
    }

    private static String read(Path log) throws IOException {
        return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
    }
}
