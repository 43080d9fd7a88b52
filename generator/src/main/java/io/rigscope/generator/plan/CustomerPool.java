package io.rigscope.generator.plan;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Where an event's customer id comes from: a fixed list, or a numeric range rendered through a
 * {@link String#format} pattern ({@code cust-%d} with 1..1000 gives {@code cust-1} ... {@code cust-1000}).
 * Each event draws uniformly. Immutable and thread-safe.
 */
public sealed interface CustomerPool {

    /** A uniformly drawn customer id. */
    String draw(ThreadLocalRandom random);

    /** The pool as plain config data (for the CONFIG marker). */
    Map<String, Object> toMap();

    /** A fixed list of ids. */
    record Listed(List<String> ids) implements CustomerPool {
        public Listed {
            ids = List.copyOf(Objects.requireNonNull(ids, "ids"));
            if (ids.isEmpty()) {
                throw new IllegalArgumentException("customers list is empty");
            }
            for (String id : ids) {
                if (id == null || id.isBlank()) {
                    throw new IllegalArgumentException("customers list holds a blank id");
                }
            }
        }

        @Override
        public String draw(ThreadLocalRandom random) {
            return ids.get(random.nextInt(ids.size()));
        }

        @Override
        public Map<String, Object> toMap() {
            return Map.of("list", ids);
        }
    }

    /** Ids {@code String.format(pattern, n)} for n in {@code [from, to]}. */
    record Ranged(String pattern, long from, long to) implements CustomerPool {
        public Ranged {
            Objects.requireNonNull(pattern, "pattern");
            if (!pattern.contains("%d")) {
                throw new IllegalArgumentException("customers pattern '" + pattern + "' has no %d");
            }
            if (from > to) {
                throw new IllegalArgumentException("customers range " + from + ".." + to + " is empty");
            }
        }

        @Override
        public String draw(ThreadLocalRandom random) {
            return pattern.replace("%d", Long.toString(random.nextLong(from, to + 1)));
        }

        @Override
        public Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>(); // a fixed key order: the CONFIG marker's bytes are stable
            m.put("pattern", pattern);
            m.put("from", from);
            m.put("to", to);
            return m;
        }
    }

    /** {@code cust-1} ... {@code cust-1000}: the default. */
    static CustomerPool defaults() {
        return new Ranged("cust-%d", 1, 1000);
    }
}
