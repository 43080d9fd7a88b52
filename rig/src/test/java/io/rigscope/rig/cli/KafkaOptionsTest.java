package io.rigscope.rig.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.rig.Main;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@Tag("it")
class KafkaOptionsTest {

    /** What must never reach the console on a normal start: Kafka's own ERRORs, warnings, stack traces. */
    private static final Pattern NOISE = Pattern.compile("(?i)\\berror\\b|severe|warn|exception|^\\s+at ");

    private record Run(int exit, String out, String err) {
    }

    /**
     * Each start is a fresh {@code rigscope topics} process, as a user runs it (logging set up by {@code main}); about
     * one normal start in three used to print Kafka's "NotControllerException" ERROR with its stack trace.
     */
    @Test
    void fiveBrokerStartsInFreshProcessesPrintOnlyRigscopesLinesAndNameTheBrokerLog(@TempDir Path tmp)
            throws Exception {
        Path first = tmp.resolve("kafka-a");
        Path second = tmp.resolve("kafka-b");
        List<Path> dataDirs = List.of(first, first, first, second, second); // fresh, then kept, twice
        for (int i = 0; i < dataDirs.size(); i++) {
            Path dataDir = dataDirs.get(i);
            boolean fresh = i == 0 || i == 3;
            Run run = rigscope(tmp, i, "topics", "--data-dir", dataDir.toString());
            String what = "start " + (i + 1) + (fresh ? " (fresh)" : " (existing data directory)") + ":\n"
                    + run.err() + run.out();
            assertThat(run.exit()).as(what).isZero();
            assertThat(run.err().lines().toList()).as(what).singleElement().satisfies(line -> assertThat(line)
                    .startsWith("kafka: started embedded broker at 127.0.0.1:")
                    .endsWith(" s (log " + dataDir.resolve("broker.log") + ")"));
            assertThat((run.err() + run.out()).lines().filter(l -> NOISE.matcher(l).find()).toList()).as(what).isEmpty();
            assertThat(run.out()).as(what).contains("TOPIC", "rig.samples");
            if (fresh) {
                assertThat(run.out()).as(what).contains("created " + io.rigscope.model.topic.Topic.values().length + " topic(s)");
            }
        }
        assertThat(Files.readString(first.resolve("broker.log"))).contains("INFO kafka.server.");
    }

    private static Run rigscope(Path tmp, int index, String... args) throws IOException, InterruptedException {
        Path out = tmp.resolve("out-" + index);
        Path err = tmp.resolve("err-" + index);
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            throw new AssertionError("rigscope " + String.join(" ", args) + " did not end within 120 s; stderr: "
                    + Files.readString(err, StandardCharsets.UTF_8));
        }
        return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }
}
