package io.rigscope.benchmarks.analyzer;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * The heap left after each garbage collection, from the JVM's GC notifications
 * ({@link GarbageCollectionNotificationInfo}): the sum of the post-GC usage of every heap pool. Unlike sampled
 * heap use it counts no garbage that a collection would free, and unlike the committed size it does not depend
 * on {@code -Xms}.
 *
 * <p>Per collector: G1 reports its young and full collections with pools {@code G1 Eden/Survivor/Old Gen} (after a
 * young collection the old generation may still hold garbage that a mixed collection frees later: the figure is
 * an upper bound of the live set). ZGC (JDK 17, not generational) reports two collectors: {@code ZGC Cycles}, one
 * notification per whole cycle with the {@code ZHeap} pool's use at the cycle's end, and {@code ZGC Pauses}, one
 * per pause, whose usage figures are all zero; a notification whose heap pools were empty both before and after is
 * skipped, which drops exactly those. ZGC's figure is the heap at the end of its concurrent cycle: the live set
 * plus what was allocated while the cycle ran (again an upper bound).
 *
 * <p>Thread-safe: the JVM's notification thread records, any thread reads. Holds one reading per collection.
 */
final class HeapAfterGc implements AutoCloseable {

    /**
     * One collection.
     *
     * @param atNanos {@link System#nanoTime()} when the notification arrived
     * @param usedBytes heap pools' use after the collection
     * @param collector the collector's MXBean name, e.g. {@code ZGC Cycles}
     * @param cause the collection's cause, e.g. {@code Allocation Rate}, {@code System.gc()}
     */
    record Reading(long atNanos, long usedBytes, String collector, String cause) {
    }

    private final Set<String> heapPools = new HashSet<>();
    private final List<Reading> readings = new ArrayList<>();
    private final List<NotificationEmitter> emitters = new ArrayList<>();
    private final NotificationListener listener = this::onNotification;

    private HeapAfterGc() {
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                heapPools.add(pool.getName());
            }
        }
    }

    /** Starts listening to every collector. */
    static HeapAfterGc start() {
        HeapAfterGc watch = new HeapAfterGc();
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc instanceof NotificationEmitter emitter) {
                emitter.addNotificationListener(watch.listener, null, null);
                watch.emitters.add(emitter);
            }
        }
        return watch;
    }

    private void onNotification(Notification n, Object handback) {
        if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType())) {
            return;
        }
        long at = System.nanoTime();
        GarbageCollectionNotificationInfo info = GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
        long before = heapBytes(info.getGcInfo().getMemoryUsageBeforeGc());
        long after = heapBytes(info.getGcInfo().getMemoryUsageAfterGc());
        if (before == 0 && after == 0) {
            return; // ZGC Pauses: a pause reports no usage; its cycle does
        }
        synchronized (readings) {
            readings.add(new Reading(at, after, info.getGcName(), info.getGcCause()));
        }
    }

    private long heapBytes(Map<String, MemoryUsage> byPool) {
        long sum = 0;
        for (var e : byPool.entrySet()) {
            if (heapPools.contains(e.getKey())) {
                sum += e.getValue().getUsed();
            }
        }
        return sum;
    }

    /** Every reading so far, oldest first. */
    List<Reading> readings() {
        synchronized (readings) {
            return List.copyOf(readings);
        }
    }

    /** The largest heap left after a collection that ended in {@code [fromNanos, toNanos)}, if any ended there. */
    OptionalLong maxBytes(long fromNanos, long toNanos) {
        OptionalLong max = OptionalLong.empty();
        for (Reading r : readings()) {
            if (r.atNanos() - fromNanos >= 0 && r.atNanos() - toNanos < 0
                    && (max.isEmpty() || r.usedBytes() > max.getAsLong())) {
                max = OptionalLong.of(r.usedBytes());
            }
        }
        return max;
    }

    /** The collectors seen, e.g. {@code ZGC Cycles}. */
    Set<String> collectors() {
        Set<String> names = new java.util.TreeSet<>();
        for (Reading r : readings()) {
            names.add(r.collector());
        }
        return names;
    }

    @Override
    public void close() {
        for (NotificationEmitter e : emitters) {
            try {
                e.removeNotificationListener(listener);
            } catch (ListenerNotFoundException gone) {
                // already removed: nothing to do
            }
        }
    }
}
