package io.rigscope.collectors.canary;

import java.util.Arrays;

/**
 * Collects one canary second: the write+fsync latencies that completed in it and which of its intervals saw a
 * completion. The writer thread calls {@link #started}/{@link #completed}; the reader calls
 * {@link #takeSecond} once a second, which hands over what was recorded and starts the next second.
 * Synchronized: one writer and one reader.
 */
final class CanaryRecorder {

    /** What one second held. */
    record Second(long fsyncs, long maxUs, long p99Us, int stalledIntervals) {
    }

    private final long intervalNs;
    private long secondStartNs;
    private long[] latenciesUs = new long[512];
    private int count;
    private boolean[] slotHit;
    private long pendingSinceNs = -1;

    CanaryRecorder(long intervalNs, long startNs) {
        this.intervalNs = intervalNs;
        this.secondStartNs = startNs;
        this.slotHit = new boolean[16];
    }

    synchronized void started(long nowNs) {
        pendingSinceNs = nowNs;
    }

    synchronized void completed(long startNs, long endNs) {
        pendingSinceNs = -1;
        if (count == latenciesUs.length) {
            latenciesUs = Arrays.copyOf(latenciesUs, count * 2);
        }
        latenciesUs[count++] = Math.max(0, (endNs - startNs) / 1_000);
        long slot = (endNs - secondStartNs) / intervalNs;
        if (slot >= 0) {
            if (slot >= slotHit.length) {
                slotHit = Arrays.copyOf(slotHit, (int) Math.max(slot + 1, slotHit.length * 2L));
            }
            slotHit[(int) slot] = true;
        }
    }

    /**
     * Closes the second that ends at {@code nowNs}. A write still pending counts in the maximum with its age so
     * far. An interval counts as stalled when no fsync completed in it.
     */
    synchronized Second takeSecond(long nowNs) {
        long[] lat = Arrays.copyOf(latenciesUs, count);
        Arrays.sort(lat);
        long max = lat.length == 0 ? 0 : lat[lat.length - 1];
        if (pendingSinceNs >= 0) {
            max = Math.max(max, (nowNs - pendingSinceNs) / 1_000);
        }
        long p99 = lat.length == 0 ? 0 : lat[Math.min(lat.length - 1, (int) Math.ceil(lat.length * 0.99) - 1)];
        int slots = (int) Math.max(0, (nowNs - secondStartNs) / intervalNs);
        int stalled = 0;
        for (int i = 0; i < slots; i++) {
            if (i >= slotHit.length || !slotHit[i]) {
                stalled++;
            }
        }
        Second s = new Second(count, max, p99, stalled);
        count = 0;
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
}
