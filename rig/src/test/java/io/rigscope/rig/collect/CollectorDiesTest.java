package io.rigscope.rig.collect;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.rig.Main;
import io.rigscope.rig.options.ExitCodes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A collector that dies mid-run is named and ends {@code collect} non-zero: {@code collect vmstat} (a process of its
 * own) reads a real {@code vmstat} child; once records flow, that child is stopped with SIGSTOP, so the collector
 * neither ends nor fails nor emits a gap marker: it stalls. {@code collect} exits 1 within the stall limit (30 s plus
 * 5 intervals) naming {@code vmstat} and the time it went quiet.
 */
@Timeout(150)
@Tag("it")
class CollectorDiesTest {

    @Test
    void aCollectorWhoseSourceStallsEndsCollectNonZeroNamingIt(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("vmstat.jsonl");
        Path log = dir.resolve("collect.log");
        List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
                "-cp", System.getProperty("java.class.path"), Main.class.getName(), "collect", "vmstat",
                "--series", "dies", "--no-kafka", "--out", out.toString(), "--duration", "120s");
        Process collect = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        ProcessHandle vmstat = null;
        try {
            // records flow: its live line counts them (the --out file is written in blocks)
            java.util.regex.Pattern flowing = java.util.regex.Pattern.compile("vmstat=([2-9]|\\d{2,}) ");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (System.nanoTime() < deadline && !flowing.matcher(Files.readString(log)).find()) {
                Thread.sleep(200);
            }
            assertThat(Files.readString(log)).containsPattern(flowing);
            Optional<ProcessHandle> child = collect.descendants()
                    .filter(p -> p.info().command().map(c -> c.endsWith("vmstat")).orElse(false)).findFirst();
            assertThat(child).as("the vmstat child of collect").isPresent();
            vmstat = child.get();
            long stoppedNs = System.nanoTime();
            assertThat(new ProcessBuilder("kill", "-STOP", String.valueOf(vmstat.pid())).start()
                    .waitFor(10, TimeUnit.SECONDS)).isTrue();

            assertThat(collect.waitFor(90, TimeUnit.SECONDS)).as("collect ended by itself").isTrue();
            long endedAfterSec = (System.nanoTime() - stoppedNs) / 1_000_000_000L;
            String text = Files.readString(log);
            assertThat(collect.exitValue()).as(text).isEqualTo(ExitCodes.ERROR);
            assertThat(text).contains("collect: collector vmstat died: stalled: nothing from it")
                    .contains("collect: exiting 1: collector vmstat died");
            assertThat(endedAfterSec).as("ended after the stall limit, not at --duration")
                    .isBetween(CollectLoop.Stalls.STALL_BASE.toSeconds(), 60L);
        } finally {
            collect.destroyForcibly();
            if (vmstat != null) {
                new ProcessBuilder("kill", "-KILL", String.valueOf(vmstat.pid())).start().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }
}
