package io.rigscope.collectors.canary;

import java.util.Arrays;

/**
 * Collects one canary second: the write+fsync latencies that completed in it, the run-queue wait of the
 * canary's thread during each (when measured), and which of its intervals saw a completion. The writer thread
 * calls {@link #measuring}, {@link #started} and {@link #completed}; the reader calls {@link #takeSecond} once a
 * second, which hands over what was recorded and starts the next second. Synchronized: one writer and one reader.
 */
final class CanaryRecorder {

    /**
     * What one second held.
     *
     * @param fsyncs writes completed
     * @param maxUs slowest write+fsync, µs (a pending one counts with its age)
     * @param p99Us 99th percentile of the completed ones, µs
     * @param stalledIntervals intervals with no completion
     * @param runq the run-queue side, or null when it was not measured
     */
    record Second(long fsyncs, long maxUs, long p99Us, int stalledIntervals, Runq runq) {
    }

    /**
     * The canary thread's run-queue wait in one second and the disk's share of the writes.
     *
     * @param maxRunqUs the run-queue wait during the slowest write+fsync (the one in {@code maxUs}), µs; for a
     *     write still pending, the wait seen so far
     * @param maxDiskUs the largest write+fsync minus its run-queue wait, µs; a pending write counts only when its
     *     thread is not runnable (a wait for a CPU in progress is not in schedstat until it ends, and the write's
     *     completion reports it exactly)
     * @param p99DiskUs 99th percentile of the completed writes' disk shares, µs
     * @param runqUs the thread's whole run-queue wait in the second, µs
     */
    record Runq(long maxRunqUs, long maxDiskUs, long p99DiskUs, long runqUs) {
    }

    /**
     * The writer thread's scheduling as the reader saw it when the second closed.
     *
     * @param runqWaitNs its run-queue wait since it started, ns (schedstat's second field)
     * @param runnable it was runnable (on a CPU or waiting for one)
     */
    record Sched(long runqWaitNs, boolean runnable) {
    }

    private final long intervalNs;
    private long secondStartNs;
    private long[] latenciesUs = new long[512];
    private long[] diskUs = new long[512];
    private int count;
    private long maxUs;
    private long maxRunqUs;
    private boolean[] slotHit;
    private long pendingSinceNs = -1;
    private long pendingRunqAtStartNs = -1;
    private boolean measured;
    private long lastRunqNs;

    CanaryRecorder(long intervalNs, long startNs) {
        this.intervalNs = intervalNs;
        this.secondStartNs = startNs;
        this.slotHit = new boolean[16];
    }

    /** The writer measures its run-queue wait from now on; {@code runqWaitNs} is its wait so far. */
    synchronized void measuring(long runqWaitNs) {
        measured = true;
        lastRunqNs = runqWaitNs;
    }

    /** A write without a run-queue reading starts. */
    synchronized void started(long nowNs) {
        started(nowNs, -1);
    }

    /** A write starts; {@code runqWaitNs} is the thread's run-queue wait so far, or -1 when not read. */
    synchronized void started(long nowNs, long runqWaitNs) {
        pendingSinceNs = nowNs;
        pendingRunqAtStartNs = runqWaitNs;
    }

    /** A write completed, its run-queue wait unknown. */
    synchronized void completed(long startNs, long endNs) {
        completed(startNs, endNs, -1);
    }

    /**
     * A write completed.
     *
     * @param runqDuringNs the thread's run-queue wait between {@code startNs} and {@code endNs}, or -1 when not read
     */
    synchronized void completed(long startNs, long endNs, long runqDuringNs) {
        pendingSinceNs = -1;
        pendingRunqAtStartNs = -1;
        if (count == latenciesUs.length) {
            latenciesUs = Arrays.copyOf(latenciesUs, count * 2);
            diskUs = Arrays.copyOf(diskUs, count * 2);
        }
        long latUs = Math.max(0, (endNs - startNs) / 1_000);
        long runqUs = runqDuringNs < 0 ? 0 : Math.min(latUs, runqDuringNs / 1_000);
        latenciesUs[count] = latUs;
        diskUs[count] = latUs - runqUs;
        count++;
        if (latUs >= maxUs) {
            maxUs = latUs;
            maxRunqUs = runqUs;
        }
        long slot = (endNs - secondStartNs) / intervalNs;
        if (slot >= 0) {
            if (slot >= slotHit.length) {
                slotHit = Arrays.copyOf(slotHit, (int) Math.max(slot + 1, slotHit.length * 2L));
            }
            slotHit[(int) slot] = true;
        }
    }

    /** {@link #takeSecond(long, Sched)} without a reading of the writer's scheduling. */
    synchronized Second takeSecond(long nowNs) {
        return takeSecond(nowNs, null);
    }

    /**
     * Closes the second that ends at {@code nowNs}. A write still pending counts in the maximum with its age so
     * far. An interval counts as stalled when no fsync completed in it.
     *
     * @param sched the writer's scheduling now, or null when unknown (the second then has no run-queue side)
     */
    synchronized Second takeSecond(long nowNs, Sched sched) {
        long[] lat = Arrays.copyOf(latenciesUs, count);
        Arrays.sort(lat);
        long max = maxUs;
        long maxRunq = maxRunqUs;
        long p99 = percentile99(lat);
        long pendingAgeUs = pendingSinceNs >= 0 ? Math.max(0, (nowNs - pendingSinceNs) / 1_000) : -1;
        long pendingRunqUs = pendingAgeUs >= 0 && sched != null && pendingRunqAtStartNs >= 0
                ? Math.min(pendingAgeUs, Math.max(0, sched.runqWaitNs() - pendingRunqAtStartNs) / 1_000) : 0;
        if (pendingAgeUs > max) {
            max = pendingAgeUs;
            maxRunq = pendingRunqUs;
        }
        Runq runq = null;
        if (measured && sched != null) {
            long[] disk = Arrays.copyOf(diskUs, count);
            Arrays.sort(disk);
            long maxDisk = disk.length == 0 ? 0 : disk[disk.length - 1];
            if (pendingAgeUs >= 0 && pendingRunqAtStartNs >= 0 && !sched.runnable()) {
                maxDisk = Math.max(maxDisk, pendingAgeUs - pendingRunqUs);
            }
            long secondRunqUs = Math.max(0, sched.runqWaitNs() - lastRunqNs) / 1_000;
            lastRunqNs = Math.max(lastRunqNs, sched.runqWaitNs());
            runq = new Runq(maxRunq, maxDisk, percentile99(disk), secondRunqUs);
        }
        int slots = (int) Math.max(0, (nowNs - secondStartNs) / intervalNs);
        int stalled = 0;
        for (int i = 0; i < slots; i++) {
            if (i >= slotHit.length || !slotHit[i]) {
                stalled++;
            }
        }
        Second s = new Second(count, max, p99, stalled, runq);
        count = 0;
        maxUs = 0;
        maxRunqUs = 0;
        long nextStart = secondStartNs + (long) slots * intervalNs;
        int carry = 0;
        boolean[] next = new boolean[Math.max(16, slotHit.length)];
        for (int i = slots; i < slotHit.length; i++) {
            next[carry++] = slotHit[i];
        }
        slotHit = next;
        secondStartNs = nextStart;
        return s;
    }

    private static long percentile99(long[] sorted) {
        return sorted.length == 0 ? 0 : sorted[Math.min(sorted.length - 1, (int) Math.ceil(sorted.length * 0.99) - 1)];
    }
}
