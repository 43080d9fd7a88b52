package io.rigscope.collectors.canary;

import static org.assertj.core.api.Assertions.assertThat;

import static org.assertj.core.api.Assumptions.assumeThat;

import io.rigscope.collectors.CollectorContext;
import io.rigscope.model.wire.Canary;
import io.rigscope.model.wire.WireRecord;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@Tag("it")
class DiskCanaryTest {

    private static final long MS = 1_000_000L;

    @Test
    void aSecondWithOneLongFsyncCountsTheIntervalsWithoutACompletionAsStalled() {
        var rec = new CanaryRecorder(5 * MS, 0);
        for (int i = 0; i < 100; i++) { // 0-500 ms: one completion per 5 ms interval
            rec.completed(i * 5 * MS, i * 5 * MS + MS / 10);
        }
        rec.started(500 * MS);
        rec.completed(500 * MS, 800 * MS); // a 300 ms fsync: intervals 100..159 see nothing
        for (int i = 160; i < 200; i++) {
            rec.completed(i * 5 * MS, i * 5 * MS + MS / 10);
        }
        CanaryRecorder.Second s = rec.takeSecond(1000 * MS);

        assertThat(s.fsyncs()).isEqualTo(141);
        assertThat(s.maxUs()).isEqualTo(300_000);
        assertThat(s.p99Us()).isEqualTo(100); // the 140th of 141 sorted latencies
        assertThat(s.stalledIntervals()).isEqualTo(60);
    }

    @Test
    void aWriteStillPendingAtTheEndOfTheSecondCountsWithItsAge() {
        var rec = new CanaryRecorder(5 * MS, 0);
        rec.completed(0, MS / 10);
        rec.started(5 * MS);
        CanaryRecorder.Second s = rec.takeSecond(1000 * MS);

        assertThat(s.maxUs()).isEqualTo(995_000);
        assertThat(s.stalledIntervals()).isEqualTo(199);
        assertThat(rec.takeSecond(2000 * MS).maxUs()).isEqualTo(1_995_000);
    }

    @Test
    void theRealDiskTakesAboutTwoHundredSyncedWritesPerSecondAndTheFileIsRemoved(@TempDir Path dir) {
        var canary = new DiskCanary(DiskCanary.Config.in(dir), CollectorContext.of("s1"));
        List<WireRecord> out = canary.records().take(2).collectList().block(Duration.ofSeconds(10));

        assertThat(out).hasSize(2).allSatisfy(r -> assertThat(r).isInstanceOf(Canary.class));
        Canary second = (Canary) out.get(1);
        assertThat(second.fsyncs()).isBetween(20L, 201L); // 200 at 5 ms; the shared machine may slow it
        assertThat(second.fsyncMaxUs()).isPositive().isGreaterThanOrEqualTo(second.fsyncP99Us());
        assertThat(second.path()).isEqualTo(canary.file().toString());
        assertThat(canary.file()).doesNotExist();
    }

    @Test
    void aWriteThatWaitedForACpuCountsTheWaitAgainstTheCpuNotTheDisk() {
        var rec = new CanaryRecorder(5 * MS, 0);
        rec.measuring(0);
        rec.started(0, 0);
        rec.completed(0, 340 * MS, 320 * MS); // 340 ms, 320 of them on the run queue
        rec.started(345 * MS, 321 * MS);
        rec.completed(345 * MS, 350 * MS, 0);
        CanaryRecorder.Second s = rec.takeSecond(1000 * MS, new CanaryRecorder.Sched(330 * MS, false));

        assertThat(s.maxUs()).isEqualTo(340_000);
        assertThat(s.runq()).isNotNull();
        assertThat(s.runq().maxRunqUs()).isEqualTo(320_000);
        assertThat(s.runq().maxDiskUs()).isEqualTo(20_000);
        assertThat(s.runq().runqUs()).isEqualTo(330_000);
    }

    @Test
    void aPendingWriteCountsAsDiskOnlyWhileItsThreadIsNotWaitingForACpu() {
        var blocked = new CanaryRecorder(5 * MS, 0);
        blocked.measuring(0);
        blocked.started(500 * MS, 10 * MS);
        CanaryRecorder.Runq inFsync = blocked.takeSecond(1000 * MS, new CanaryRecorder.Sched(30 * MS, false)).runq();
        assertThat(inFsync.maxDiskUs()).as("500 ms pending, 20 ms of it on the run queue").isEqualTo(480_000);
        assertThat(inFsync.maxRunqUs()).isEqualTo(20_000);

        var runnable = new CanaryRecorder(5 * MS, 0);
        runnable.measuring(0);
        runnable.completed(0, 2 * MS, 0);
        runnable.started(500 * MS, 10 * MS);
        CanaryRecorder.Second s = runnable.takeSecond(1000 * MS, new CanaryRecorder.Sched(10 * MS, true));
        assertThat(s.maxUs()).isEqualTo(500_000);
        assertThat(s.runq().maxDiskUs()).as("a wait for a CPU in progress is not in schedstat yet: left to the "
                + "write's completion").isEqualTo(2_000);
    }

    @Test
    void withoutASchedulingReadingASecondHasNoRunQueueSide() {
        var rec = new CanaryRecorder(5 * MS, 0);
        rec.completed(0, MS);
        assertThat(rec.takeSecond(1000 * MS, new CanaryRecorder.Sched(5 * MS, false)).runq())
                .as("never measuring").isNull();
        var measuring = new CanaryRecorder(5 * MS, 0);
        measuring.measuring(0);
        assertThat(measuring.takeSecond(1000 * MS, null).runq()).as("no reading this second").isNull();
    }

    @Test
    void schedstatIsThreeNumbersAndZerosMeanTheAccountingIsOff(@TempDir Path dir) throws IOException {
        assertThat(TaskSchedstat.parse("1472976 38211 2\n".getBytes(StandardCharsets.US_ASCII), 16))
                .containsExactly(1472976, 38211, 2);
        assertThat(TaskSchedstat.open(dir).unavailable()).endsWith("schedstat absent");
        Files.writeString(dir.resolve("schedstat"), "0 0 0\n");
        assertThat(TaskSchedstat.open(dir).unavailable()).contains("reads 0 0 0");
        Files.writeString(dir.resolve("schedstat"), "garbage\n");
        assertThat(TaskSchedstat.open(dir).unavailable()).contains("unreadable");
    }

    @Test
    void withoutSchedstatTheCanarySaysSoAndReportsTotalsOnly(@TempDir Path dir) {
        Canary c = new Canary("s1", 1, "canary@h", 1, dir.toString(), 1, 1_000, 1_000, 0, Canary.RUNQ_UNAVAILABLE,
                null, null, null, null, 2);
        assertThat(c.runqMeasured()).isFalse();
        assertThat(c.fsyncMaxDiskUs()).isNull();
    }

    /**
     * The canary's writer thread and two busy threads pinned to one CPU, the busy ones at a higher priority
     * (nice -15), for about three seconds: the canary waits for the CPU, the disk does not stall. Its seconds must
     * show the wait as run-queue time and keep the disk's share apart.
     */
    @Test
    void onThisMachineARunQueueWaitIsMeasuredAndTakenOutOfTheDisksShare(@TempDir Path dir) throws Exception {
        assumeThat(TaskSchedstat.currentThreadDir()).as("Linux with /proc/thread-self").isPresent();
        assumeThat(TaskSchedstat.open(TaskSchedstat.currentThreadDir().orElseThrow()).reader())
                .as("schedstat on this kernel").isNotNull();
        assumeThat(Path.of("/usr/bin/taskset")).exists();
        var canary = new DiskCanary(DiskCanary.Config.in(dir), CollectorContext.of("s1"));
        List<Canary> seconds = java.util.Collections.synchronizedList(new ArrayList<>());
        var sink = new java.util.concurrent.atomic.AtomicLong();
        List<Thread> hogs = new ArrayList<>();
        var subscription = canary.records().ofType(Canary.class).subscribe(seconds::add);
        try {
            String canaryTid = waitForThread("rigscope-canary", Duration.ofSeconds(5)).orElseThrow();
            run("taskset", "-p", "-c", "0", canaryTid);
            long until = System.nanoTime() + Duration.ofSeconds(3).toNanos();
            for (int i = 0; i < 2; i++) {
                Thread hog = new Thread(() -> {
                    try {
                        String tid = ownTid();
                        run("taskset", "-p", "-c", "0", tid);
                        run("renice", "-n", "-15", "-p", tid);
                    } catch (IOException | InterruptedException e) {
                        return;
                    }
                    long x = 0;
                    while (System.nanoTime() < until) {
                        x += System.nanoTime() & 1; // busy: no sleep, no IO
                    }
                    sink.addAndGet(x);
                }, "busy-" + i);
                hog.setDaemon(true);
                hog.start();
                hogs.add(hog);
            }
            for (Thread hog : hogs) {
                hog.join(5_000);
            }
            Thread.sleep(1_200); // the last contended second closes
        } finally {
            subscription.dispose();
        }
        List<Canary> contended;
        synchronized (seconds) {
            contended = List.copyOf(seconds); // every second of the run: about 3 of its 4 contended
        }
        assertThat(contended).isNotEmpty().allSatisfy(c -> {
            assertThat(c.runqSource()).isEqualTo(Canary.RUNQ_SCHEDSTAT);
            assertThat(c.cpus()).isPositive();
            assertThat(c.fsyncMaxDiskUs()).isLessThanOrEqualTo(c.fsyncMaxUs());
            assertThat(c.fsyncMaxRunqUs()).isLessThanOrEqualTo(c.fsyncMaxUs());
        });
        for (Canary c : contended) {
            System.out.printf("contended canary second: slowest write+fsync %d us, %d us of it run-queue wait; "
                            + "disk share max %d us, p99 %d us; thread's run-queue wait %d us; %d fsyncs, %d stalled%n",
                    c.fsyncMaxUs(), c.fsyncMaxRunqUs(), c.fsyncMaxDiskUs(), c.fsyncP99DiskUs(), c.runqUs(),
                    c.fsyncs(), c.stalledIntervals());
        }
        long runqUs = contended.stream().mapToLong(Canary::runqUs).sum();
        assertThat(runqUs).as("the pinned canary waited for its CPU").isGreaterThan(200_000);
        // the shared disk may stall on its own in one of the seconds (then the disk's share says so); the CPU's
        // wait must show in at least one of them as the larger part of the slowest write, taken from the disk
        assertThat(contended).as("a second whose slowest write+fsync was mostly a wait for the CPU")
                .anySatisfy(c -> {
                    assertThat(c.fsyncMaxRunqUs()).isGreaterThan(10_000).isGreaterThan(c.fsyncMaxUs() / 2);
                    assertThat(c.fsyncMaxUs() - c.fsyncMaxRunqUs()).isLessThan(c.fsyncMaxUs() / 2);
                });
    }

    private static Optional<String> waitForThread(String comm, Duration timeout) throws Exception {
        long until = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < until) {
            try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
                for (Path t : tasks.toList()) {
                    try {
                        if (Files.readString(t.resolve("comm")).strip().equals(comm)) {
                            return Optional.of(t.getFileName().toString());
                        }
                    } catch (IOException gone) {
                        // the thread ended meanwhile
                    }
                }
            }
            Thread.sleep(20);
        }
        return Optional.empty();
    }

    private static String ownTid() throws IOException {
        return Files.readSymbolicLink(Path.of("/proc/thread-self")).getFileName().toString();
    }

    private static void run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (!p.waitFor(10, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException(String.join(" ", command) + " did not end in 10 s");
        }
        if (p.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " exited " + p.exitValue());
        }
    }
}
