package io.rigscope.collectors;

import java.time.Clock;
import java.util.Objects;
import java.util.function.IntSupplier;

/**
 * What every collector stamps on its records: the series id, the current repeat, the host it runs on,
 * and the clock it reads when the source carries no timestamp of its own.
 *
 * <p>The repeat is a supplier because a collector runs across repeats: the orchestrator moves it on and
 * each record takes the value current when it is built. Immutable; thread-safe if the supplier is.
 *
 * @param run series id (the Kafka key), never blank
 * @param repeat the current repeat number, 0 outside a repeat
 * @param host a short name for where the collector runs, used in {@code src} ({@code vmstat@host})
 * @param clock wall clock for records whose source has no timestamp
 */
public record CollectorContext(String run, IntSupplier repeat, String host, Clock clock) {

    public CollectorContext {
        Objects.requireNonNull(run, "run (series id) is missing");
        if (run.isBlank()) {
            throw new IllegalArgumentException("run (series id) is blank");
        }
        repeat = repeat == null ? () -> 0 : repeat;
        host = host == null || host.isBlank() ? localHostName() : host;
        clock = clock == null ? Clock.systemUTC() : clock;
    }

    /** A context for series {@code run} on this host, repeat 0, the system clock. */
    public static CollectorContext of(String run) {
        return new CollectorContext(run, () -> 0, null, null);
    }

    /** The producer id of a collector: {@code name@host}, e.g. {@code vmstat@app-1}. */
    public String src(String collector) {
        return collector + "@" + host;
    }

    /** The repeat number now. */
    public int rep() {
        return repeat.getAsInt();
    }

    /** Now, epoch microseconds. */
    public long nowUs() {
        var now = clock.instant();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }

    private static String localHostName() {
        String env = System.getenv("HOSTNAME");
        if (env != null && !env.isBlank()) {
            return env;
        }
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException e) {
            return "localhost";
        }
    }
}
