package io.rigscope.analyzer.attribution;

import io.rigscope.model.wire.Waits;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Active sessions by wait event over a set of {@code rig.waits} records: each event's average over the records,
 * the total, and the share of a family of events. "Sessions" are average active sessions (Performance Insights'
 * db.load); {@code CPU} is active without a wait. Timer waits ({@code Timeout:*}: {@code Timeout:PgSleep},
 * {@code Timeout:VacuumDelay}, ...) are left out everywhere: a session sleeping on a timer is counted active by
 * pg_stat_activity and Performance Insights but does no work and waits for nothing a cause holds, so it would only
 * dilute every rule's share (a {@code pg_sleep} session beside a WAL-pool freeze made it {@code storage}).
 */
final class WaitProfile {

    public static final Set<String> LOCK = Set.of("Lock:transactionid", "Lock:tuple", "LWLock:LockManager", "Lock:relation");
    public static final Set<String> WAL = Set.of("LWLock:WALWrite", "LWLock:WALInsert", "IO:WALWrite", "IO:WALSync");
    public static final Set<String> WAL_INIT = Set.of("IO:WALInitWrite", "IO:WALInitSync");
    public static final Set<String> DATA_SYNC = Set.of("IO:DataFileSync", "IO:DataFileFlush");
    public static final Set<String> DATA_READ = Set.of("IO:DataFileRead");

    private final Map<String, Double> average = new TreeMap<>();
    private final int records;
    private double total;

    public WaitProfile(List<Waits> waits) {
        this.records = waits.size();
        for (Waits w : waits) {
            w.load().forEach((event, load) -> {
                if (!timer(event)) {
                    average.merge(event, load, Double::sum);
                }
            });
        }
        if (records > 0) {
            average.replaceAll((event, sum) -> sum / records);
        }
        for (double v : average.values()) {
            total += v;
        }
    }

    /** True for a timer wait ({@code Timeout:*}): a session sleeping, not working nor held by a cause. */
    public static boolean timer(String event) {
        return event.startsWith("Timeout:");
    }

    /** A record's active sessions, timer waits left out. */
    public static double active(Waits w) {
        double sum = 0;
        for (Map.Entry<String, Double> e : w.load().entrySet()) {
            sum += timer(e.getKey()) ? 0 : e.getValue();
        }
        return sum;
    }

    public boolean empty() {
        return records == 0;
    }

    public int records() {
        return records;
    }

    /** Average active sessions over the records. */
    public double total() {
        return total;
    }

    /** Average active sessions on any of these events. */
    public double sessions(Set<String> family) {
        double sum = 0;
        for (String e : family) {
            sum += average.getOrDefault(e, 0.0);
        }
        return sum;
    }

    /** Their share of all active sessions (0 when none were active). */
    public double share(Set<String> family) {
        return total <= 0 ? 0 : sessions(family) / total;
    }

    /** The family's events seen, with their average sessions, in words: {@code Lock:transactionid 5.8}. */
    public String describe(Set<String> family) {
        StringBuilder b = new StringBuilder();
        average.forEach((e, v) -> {
            if (family.contains(e) && v > 0) {
                b.append(b.length() == 0 ? "" : ", ").append(e).append(' ').append(round(v));
            }
        });
        return b.length() == 0 ? "none" : b.toString();
    }

    public static double round(double v) {
        return Math.round(v * 100.0) / 100.0;
    }
}
