package io.rigscope.localenv.childjvm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
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
import org.junit.jupiter.api.io.TempDir;

/** Real child JVMs running {@link Scripted}: how they are started, watched, failed and stopped. */
@Timeout(60)
@Tag("it")
public class ChildJvmTest {

    private static final List<String> SMALL_JVM = List.of("-Xmx32m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");

    /** The child: {@code listen}, {@code exit <code>}, {@code silent} or {@code echo} (a line protocol). */
    static final class Scripted {
        public static void main(String[] args) throws Exception {
            switch (args[0]) {
                case "echo" -> {
                    System.err.println("echo: ready");
                    var in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
                    String line;
                    while ((line = in.readLine()) != null && !line.equals("quit")) {
                        if (line.equals("die")) {
                            System.err.println("echo: dying");
                            System.exit(4);
                        }
                        System.out.println("echo " + line);
                        System.out.flush();
                    }
                }
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
    public static List<String> commandLine(long pid) throws IOException {
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
            assertThat(Files.readString(child.log())).contains("secret=s3cret", "path=null");
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

    private static List<String> echoCommand() {
        return List.of(ChildJvm.javaBinary(), "-Xmx32m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp",
                System.getProperty("java.class.path"), Scripted.class.getName(), "echo");
    }

    @Test
    void aLineProtocolChildAnswersEachLineAndEndsOnQuitWhenClosed(@TempDir Path dir) throws Exception {
        ProcessHandle handle;
        try (ChildJvm child = ChildJvm.start("the echo child", echoCommand(), dir.resolve("logs/echo.log"))) {
            handle = ProcessHandle.of(child.pid()).orElseThrow();
            child.send("hello");
            assertThat(child.next(Duration.ofSeconds(30))).isEqualTo("echo hello");
            assertThat(child.cpuNanos()).isPositive();
            assertThat(child.baseUri()).isNull();
        }
        assertThat(handle.isAlive()).isFalse();
        assertThat(Files.readString(dir.resolve("logs/echo.log"))).contains("echo: ready");
    }

    @Test
    void aLineProtocolChildThatEndsFailsTheNextReadWithItsExitCodeAndItsLog(@TempDir Path dir) throws IOException {
        Path log = dir.resolve("echo.log");
        try (ChildJvm child = ChildJvm.start("the echo child", echoCommand(), log)) {
            child.send("die");
            assertThatThrownBy(() -> child.next(Duration.ofSeconds(30)))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage("the echo child ended with exit code 4 (log: " + log + ": echo: ready | echo: dying)");
        }
    }
}
