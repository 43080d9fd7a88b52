package io.rigscope.model.wire;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What the service said of one request's time in its W3C {@code Server-Timing} response header: each metric's
 * name and {@code dur}, in microseconds, in the header's order. Immutable and compact (two parallel arrays, no map
 * nodes), so a sample can carry it without much cost; {@link #NONE} when the response had no usable header.
 *
 * <p>On the wire (JSON) it is an object {@code {"pool": 120, "db": 3400, "app": 250}} of µs; it is left out of a
 * sample when empty, so a sample without it encodes as before and an old sample decodes as {@link #NONE}.
 *
 * <p>Thread-safe (immutable).
 */
public final class ServerTiming {

    /** No timing: the response carried no {@code Server-Timing} with a {@code dur}. */
    public static final ServerTiming NONE = new ServerTiming(new String[0], new long[0]);

    /** The most metrics kept from one header; more are ignored (and counted as malformed by the parser). */
    public static final int MAX_METRICS = 16;

    private final String[] names;
    private final long[] durUs;

    private ServerTiming(String[] names, long[] durUs) {
        this.names = names;
        this.durUs = durUs;
    }

    /**
     * A timing of these metrics, in this order.
     *
     * @throws IllegalArgumentException on a blank or repeated name, a negative duration, different lengths or
     *         more than {@link #MAX_METRICS} metrics
     */
    public static ServerTiming of(String[] names, long[] durUs) {
        Objects.requireNonNull(names, "names");
        Objects.requireNonNull(durUs, "durUs");
        if (names.length != durUs.length) {
            throw new IllegalArgumentException(names.length + " names for " + durUs.length + " durations");
        }
        if (names.length > MAX_METRICS) {
            throw new IllegalArgumentException(names.length + " server-timing metrics, at most " + MAX_METRICS);
        }
        if (names.length == 0) {
            return NONE;
        }
        for (int i = 0; i < names.length; i++) {
            Checks.nonBlank(names[i], "server-timing name");
            if (durUs[i] < 0) {
                throw new IllegalArgumentException("server-timing " + names[i] + " has a negative duration " + durUs[i]);
            }
            for (int j = 0; j < i; j++) {
                if (names[j].equals(names[i])) {
                    throw new IllegalArgumentException("server-timing " + names[i] + " appears twice");
                }
            }
        }
        return new ServerTiming(names.clone(), durUs.clone());
    }

    /** From the wire: {@code {name: µs}}; null or empty is {@link #NONE}. */
    @JsonCreator
    public static ServerTiming fromMap(Map<String, ? extends Number> durUsByName) {
        if (durUsByName == null || durUsByName.isEmpty()) {
            return NONE;
        }
        String[] n = new String[durUsByName.size()];
        long[] d = new long[n.length];
        int i = 0;
        for (Map.Entry<String, ? extends Number> e : durUsByName.entrySet()) {
            n[i] = e.getKey();
            d[i] = Objects.requireNonNull(e.getValue(), "server-timing " + e.getKey() + " has no duration").longValue();
            i++;
        }
        return of(n, d);
    }

    /** {@code {name: µs}} in the header's order, as the wire shows it. */
    @JsonValue
    public Map<String, Long> asMap() {
        Map<String, Long> out = new LinkedHashMap<>();
        for (int i = 0; i < names.length; i++) {
            out.put(names[i], durUs[i]);
        }
        return out;
    }

    /** Metrics held. */
    public int size() {
        return names.length;
    }

    /** True when the service said nothing usable. */
    public boolean isEmpty() {
        return names.length == 0;
    }

    /** The i-th metric's name. */
    public String name(int i) {
        return names[i];
    }

    /** The i-th metric's duration, µs. */
    public long durUs(int i) {
        return durUs[i];
    }

    /** The named metric's duration, µs, or -1 when the service did not name it. */
    public long durUs(String name) {
        for (int i = 0; i < names.length; i++) {
            if (names[i].equals(name)) {
                return durUs[i];
            }
        }
        return -1;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ServerTiming t && Arrays.equals(names, t.names) && Arrays.equals(durUs, t.durUs);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(names) + Arrays.hashCode(durUs);
    }

    @Override
    public String toString() {
        return asMap().toString();
    }
}
