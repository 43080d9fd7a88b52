package io.rigscope.rig.selftest;

import io.rigscope.generator.target.BenchServer;
import io.rigscope.localenv.kafka.DetachedBroker;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The detached broker's guarantees, with two {@code rigscope generate} commands in child JVMs on one data directory
 * and no broker running at first: A ({@value #SHORT_SEC} s) starts the broker; B ({@value #LONG_SEC} s) starts while
 * A runs and ends after it, on the same broker (A's end stops nothing); {@value #KILL_AFTER_A_SEC} s after A ended
 * the broker process is killed with SIGKILL mid-repeat, and B's watch starts it again on the same port. Both must
 * exit 0, with every sample their ledgers count as sent on {@code rig.samples} (0 lost), one repeat each in the
 * report replayed from the topics, and no stack trace on either console.
 *
 * @param exitA A's exit code
 * @param exitB B's exit code
 * @param sameBroker B used the broker A started (its console says "using")
 * @param restarted the broker's pid after the kill differs from the one killed, and B's console says it started it
 *     again
 * @param restartSec from the kill to the broker answering again (B's console line), or -1
 * @param sentA requests A's ledger counts as sent; samplesA its samples on the topic
 * @param sentB the same for B
 * @param samplesB B's samples on the topic
 * @param repeatsA repeats in A's report replayed from the topics
 * @param repeatsB the same for B
 * @param stackTraces lines of either console that look like a stack trace
 * @param firstTrace the first of those lines with the lines around it (which console, what it said), or ""
 */
record SharedBroker(int exitA, int exitB, boolean sameBroker, boolean restarted, double restartSec,
                           long sentA, long samplesA, long sentB, long samplesB, int repeatsA, int repeatsB,
                           long stackTraces, String firstTrace) {

    static final int SHORT_SEC = 6;
    static final int LONG_SEC = 14;
    static final int KILL_AFTER_A_SEC = 2;

    /** Both complete, nothing lost, the broker restarted, no trace. */
    public boolean holds() {
        return exitA == 0 && exitB == 0 && sameBroker && restarted && sentA > 0 && sentA == samplesA && sentB > 0
                && sentB == samplesB && repeatsA == 1 && repeatsB == 1 && stackTraces == 0;
    }

    /** A console line that looks like part of a stack trace (a frame, or an exception's text not on a kafka: line). */
    private static boolean isTrace(String line) {
        return line.startsWith("\tat ") || line.contains("Exception:") && !line.startsWith("kafka:");
    }

    /** Runs the scenario with the broker's data in {@code workDir/shared-kafka}. */
    static SharedBroker run(String seriesPrefix, Path workDir, PrintStream progress) {
        Path data = workDir.resolve("shared-kafka");
        String a = seriesPrefix + "-a";
        String b = seriesPrefix + "-b";
        try (BenchServer server = new BenchServer(1)) {
            Files.createDirectories(data);
            DetachedBroker.stop(data, Duration.ofSeconds(30));
            Process childA = generate(server.url(), data, a, SHORT_SEC, workDir);
            String bootstrap = ChildCommands.awaitBroker(data, childA, "the first command");
            progress.printf("  A (pid %d) started the broker at %s; starting B%n", childA.pid(), bootstrap);
            Process childB = generate(server.url(), data, b, LONG_SEC, workDir);
            int exitA = childA.waitFor(120, TimeUnit.SECONDS) ? childA.exitValue() : -1;
            long killed = DetachedBroker.find(data).orElseThrow(() -> new IllegalStateException(
                    "no broker runs after A ended")).pid();
            progress.printf("  A ended (exit %d); broker pid %d still runs for B; killing it (SIGKILL) in %d s%n",
                    exitA, killed, KILL_AFTER_A_SEC);
            Thread.sleep(KILL_AFTER_A_SEC * 1000L);
            ProcessHandle broker = ProcessHandle.of(killed).orElseThrow();
            broker.destroyForcibly();
            broker.onExit().get(10, TimeUnit.SECONDS);
            int exitB = childB.waitFor(240, TimeUnit.SECONDS) ? childB.exitValue() : -1;
            String logA = Files.readString(log(workDir, a));
            String logB = Files.readString(log(workDir, b));
            long now = DetachedBroker.find(data).map(DetachedBroker.Running::pid).orElse(-1L);
            boolean restarted = now > 0 && now != killed && logB.contains("kafka: embedded broker started again at ");
            double restartSec = logB.lines().filter(l -> l.startsWith("kafka: embedded broker started again at "))
                    .map(l -> l.replaceAll(".* after ([0-9.]+) s.*", "$1")).mapToDouble(Double::parseDouble)
                    .findFirst().orElse(-1);
            String current = DetachedBroker.find(data).map(DetachedBroker.Running::bootstrap).orElse(bootstrap);
            ChildCommands.SeriesCounts countsA = ChildCommands.counts(current, a);
            ChildCommands.SeriesCounts countsB = ChildCommands.counts(current, b);
            List<String> lines = ("A: " + logA.replace("\n", "\nA: ") + "\nB: " + logB.replace("\n", "\nB: "))
                    .lines().toList();
            List<Integer> traceLines = java.util.stream.IntStream.range(0, lines.size())
                    .filter(i -> isTrace(lines.get(i).substring(3))).boxed().toList();
            long traces = traceLines.size();
            String firstTrace = traceLines.isEmpty() ? "" : String.join("\n", lines.subList(
                    Math.max(0, traceLines.get(0) - 3), Math.min(lines.size(), traceLines.get(0) + 8)));
            return new SharedBroker(exitA, exitB, logB.contains("kafka: using embedded broker at " + bootstrap),
                    restarted, restartSec, countsA.sent(), countsA.samples(), countsB.sent(), countsB.samples(),
                    countsA.report().repeats().size(), countsB.report().repeats().size(), traces, firstTrace);
        } catch (IOException e) {
            throw new UncheckedIOException("the shared-broker scenario failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("the killed broker did not end: " + e, e);
        } finally {
            DetachedBroker.stop(data, Duration.ofSeconds(30));
        }
    }



    private static Path log(Path workDir, String series) {
        return workDir.resolve(series + ".generate.log");
    }

    private static Process generate(String url, Path data, String series, int durationSec, Path workDir)
            throws IOException {
        List<String> command = List.of(FaultSeries.Child.javaBinary(), "-Xmx384m", "-cp",
                System.getProperty("java.class.path"), "io.rigscope.rig.Main", "generate", "--data-dir",
                data.toString(), "--url", url, "--rate", "100", "--duration", durationSec + "s", "--batch", "0",
                "--method", "GET", "--series", series, "--rep", "1", "--last", "--spool",
                workDir.resolve("journal").toString(), "--broker-idle-stop", "1m");
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.to(log(workDir, series).toFile()));
        Map<String, String> env = pb.environment();
        env.remove("RIGSCOPE_BROKER"); // the detached broker is what is tested, even under the test suite
        return pb.start();
    }
}
