package io.rigscope.rig.sutproc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Real child JVMs running {@link Scripted}: how they are started, watched, failed and stopped. */
@Timeout(60)
@Tag("it")
class ChildJvmTest {

    private static final List<String> SMALL_JVM = List.of("-Xmx32m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");

    /** The child: {@code listen}, {@code exit <code>} or {@code silent}. */
    static final class Scripted {
        public static void main(String[] args) throws InterruptedException {
            switch (args[0]) {
                case "listen" -> {
                    System.out.println("secret=" + System.getenv("CHILD_JVM_SECRET"));
                    System.out.println("path=" + System.getenv("PATH"));
                    System.out.println("scripted: listening on http://127.0.0.1:9 (not really)");
                    System.out.flush();
                    Thread.sleep(Long.MAX_VALUE);
                }
                case "exit" -> {
                    for (int i = 1; i <= 12; i++) {
                        System.err.println("out " + i);
                    }
                    System.exit(Integer.parseInt(args[1]));
                }
                case "silent" -> Thread.sleep(Long.MAX_VALUE);
                default -> throw new IllegalArgumentException(args[0]);
            }
        }
    }

    private static ChildJvm.Spec spec(List<String> arguments, Map<String, String> env, Duration timeout, Path log) {
        return new ChildJvm.Spec("the scripted child", SMALL_JVM, Scripted.class.getName(), arguments, env,
                "scripted: listening on ", timeout, log);
    }

    /**
     * What {@code ps} shows of a process (Linux). Not {@code ProcessHandle.Info.arguments()}: that is empty for a
     * command line with a class path this long, so a check on it passes whatever the command line holds.
     */
    static List<String> commandLine(long pid) throws IOException {
        String cmdline = new String(Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline")),
                StandardCharsets.UTF_8);
        return List.of(cmdline.split("\0"));
    }

    private static Path newLog() {
        return ChildJvm.newLogFile("rigscope-childjvm-test-", "the scripted child");
    }

    @Test
    void aChildThatListensIsUpWithItsUrlGetsItsEnvironmentAndIsStoppedOnClose() throws Exception {
        Map<String, String> env = new HashMap<>();
        env.put("CHILD_JVM_SECRET", "s3cret");
        env.put("PATH", null);
        ProcessHandle handle;
        try (ChildJvm child = ChildJvm.start(spec(List.of("listen"), env, Duration.ofSeconds(30), newLog()))) {
            assertThat(child.baseUri()).isEqualTo(URI.create("http://127.0.0.1:9"));
            handle = ProcessHandle.of(child.pid()).orElseThrow();
            assertThat(commandLine(child.pid())).contains(Scripted.class.getName(), "listen")
                    .noneMatch(arg -> arg.contains("s3cret"));
            assertThat(Files.readString(child.logFile())).contains("secret=s3cret", "path=null");
        }
        assertThat(handle.isAlive()).isFalse();
    }

    @Test
    void aChildThatExitsBeforeListeningFailsWithItsCodeItsLogAndTheLogsLastTenLines() {
        Path log = newLog();
        assertThatThrownBy(() -> ChildJvm.start(spec(List.of("exit", "3"), Map.of(), Duration.ofSeconds(30), log)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("the scripted child exited with code 3 before it listened (log " + log + "):\n"
                        + "  out 3\n  out 4\n")
                .hasMessageEndingWith("\n  out 12");
    }

    @Test
    void aChildThatNeverPrintsIsKilledAtTheStartTimeout() {
        Set<Long> before = ProcessHandle.current().children().map(ProcessHandle::pid).collect(Collectors.toSet());
        Path log = newLog();
        long startNs = System.nanoTime();
        assertThatThrownBy(() -> ChildJvm.start(spec(List.of("silent"), Map.of(), Duration.ofSeconds(1), log)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("the scripted child did not come up within 1 s; killed it (log " + log + "): (empty)");
        assertThat(Duration.ofNanos(System.nanoTime() - startNs)).isGreaterThanOrEqualTo(Duration.ofSeconds(1));
        assertThat(ProcessHandle.current().children().filter(ProcessHandle::isAlive)
                .filter(p -> !before.contains(p.pid()))).isEmpty();
    }

    @Test
    void aListeningLineThatAnEarlierChildLeftInTheLogIsNotTaken() throws Exception {
        Path log = newLog();
        Files.writeString(log, "scripted: listening on http://127.0.0.1:1\nout 0\n");
        assertThatThrownBy(() -> ChildJvm.start(spec(List.of("exit", "2"), Map.of(), Duration.ofSeconds(30), log)))
                .hasMessageContaining("exited with code 2")
                .hasMessageNotContaining("out 0");
    }

    @Test
    void theChildRunsTheJavaOfThisProcess() {
        assertThat(ChildJvm.javaBinary()).endsWith("java");
    }
}
