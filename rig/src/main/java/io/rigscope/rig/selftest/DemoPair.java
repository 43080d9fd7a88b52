package io.rigscope.rig.selftest;

import io.rigscope.localenv.kafka.DetachedBroker;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Two series side by side, as two terminals run them: two {@code rigscope demo --quick} commands in child JVMs on one
 * data directory with no broker running at first. A starts the broker; B starts {@value #B_AFTER_SEC} s after A's
 * broker answers, so it runs while A runs and ends after it, on the same broker (A's end stops nothing). Both must
 * end with their verdict (exit 0 or 99) and their report file, every repeat of each reconciled (the database gained
 * what the analyzer counted as claimed), every sample their ledgers count as sent on {@code rig.samples} (0 lost),
 * and no stack trace on either console.
 *
 * @param exitA A's exit code (-1: it did not end in time)
 * @param exitB B's exit code
 * @param bOutlivedA B was still running when A ended
 * @param sameBroker B used the broker A started (its console says "using")
 * @param reportsWritten both report files exist
 * @param repeatsA repeats in A's report replayed from the topics; reconciledA those reconciled
 * @param reconciledA A's repeats reconciled
 * @param repeatsB the same for B
 * @param reconciledB B's repeats reconciled
 * @param lostA requests A's ledger counts as sent less its samples on the topic
 * @param lostB the same for B
 * @param stackTraces lines of either console that look like a stack trace
 */
record DemoPair(int exitA, int exitB, boolean bOutlivedA, boolean sameBroker, boolean reportsWritten,
                       int repeatsA, int reconciledA, int repeatsB, int reconciledB, long lostA, long lostB,
                       long stackTraces) {

    static final int B_AFTER_SEC = 20;
    private static final Duration EACH_LIMIT = Duration.ofMinutes(8);

    /** Both complete and reconciled, nothing lost, no trace. */
    public boolean holds() {
        return completed(exitA) && completed(exitB) && bOutlivedA && sameBroker && reportsWritten && repeatsA > 0
                && reconciledA == repeatsA && repeatsB > 0 && reconciledB == repeatsB && lostA == 0 && lostB == 0
                && stackTraces == 0;
    }

    private static boolean completed(int exit) {
        return exit == 0 || exit == 99; // a verdict either way: PASS, or gates failed (a loaded host's latencies)
    }

    /** Runs the scenario with the broker's data in {@code workDir/demo-pair-kafka}. */
    static DemoPair run(String seriesPrefix, Path workDir, PrintStream progress) {
        Path data = workDir.resolve("demo-pair-kafka");
        String a = seriesPrefix + "-a";
        String b = seriesPrefix + "-b";
        try {
            Files.createDirectories(data);
            DetachedBroker.stop(data, Duration.ofSeconds(30));
            Process childA = demo(data, a, workDir);
            String bootstrap = ChildCommands.awaitBroker(data, childA, "the first demo");
            progress.printf("  demo A (pid %d) started the broker at %s; demo B in %d s%n", childA.pid(), bootstrap,
                    B_AFTER_SEC);
            Thread.sleep(B_AFTER_SEC * 1000L);
            Process childB = demo(data, b, workDir);
            int exitA = childA.waitFor(EACH_LIMIT.toSeconds(), TimeUnit.SECONDS) ? childA.exitValue() : -1;
            boolean outlived = childB.isAlive();
            progress.printf("  demo A ended (exit %d); B %s%n", exitA, outlived ? "still runs" : "HAD ENDED");
            int exitB = childB.waitFor(EACH_LIMIT.toSeconds(), TimeUnit.SECONDS) ? childB.exitValue() : -1;
            childA.destroyForcibly();
            childB.destroyForcibly();
            String logA = Files.readString(log(workDir, a));
            String logB = Files.readString(log(workDir, b));
            String current = DetachedBroker.find(data).map(DetachedBroker.Running::bootstrap).orElse(bootstrap);
            ChildCommands.SeriesCounts countsA = ChildCommands.counts(current, a);
            ChildCommands.SeriesCounts countsB = ChildCommands.counts(current, b);
            long traces = (logA + "\n" + logB).lines().filter(l -> l.startsWith("\tat ")).count();
            return new DemoPair(exitA, exitB, outlived, logB.contains("kafka: using embedded broker at " + bootstrap),
                    Files.isRegularFile(report(workDir, a)) && Files.isRegularFile(report(workDir, b)),
                    repeats(countsA), reconciled(countsA), repeats(countsB), reconciled(countsB), lost(countsA), lost(countsB),
                    traces);
        } catch (IOException e) {
            throw new UncheckedIOException("the two-demo scenario failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } finally {
            DetachedBroker.stop(data, Duration.ofSeconds(30));
        }
    }



    private static int repeats(ChildCommands.SeriesCounts counts) {
        return counts.report().repeats().size();
    }

    private static int reconciled(ChildCommands.SeriesCounts counts) {
        return (int) counts.report().repeats().stream().filter(r -> Boolean.TRUE.equals(r.reconciled())).count();
    }

    /** The ledger's sent less the samples on the topic. */
    private static long lost(ChildCommands.SeriesCounts counts) {
        return counts.sent() - counts.samples();
    }

    private static Path log(Path workDir, String series) {
        return workDir.resolve(series + ".demo.log");
    }

    private static Path report(Path workDir, String series) {
        return workDir.resolve(series + ".report.json");
    }

    private static Process demo(Path data, String series, Path workDir) throws IOException {
        List<String> command = List.of(FaultSeries.Child.javaBinary(), "-Xmx512m", "-cp",
                System.getProperty("java.class.path"), "io.rigscope.rig.Main", "demo", "--quick", "--series", series,
                "--data-dir", data.toString(), "--report-json", report(workDir, series).toString(),
                "--broker-idle-stop", "1m");
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.to(log(workDir, series).toFile()));
        pb.environment().remove("RIGSCOPE_BROKER"); // the detached broker is what is tested, even under the test suite
        return pb.start();
    }
}
