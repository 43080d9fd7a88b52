package io.rigscope.importers.k6;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The tags of a k6 point, as written (key order kept). Instances come from a {@link K6LineReader}, which interns
 * them: the points of one run share a few dozen tag sets, so equal tag sets read by one reader are the same
 * object. Immutable and thread-safe.
 */
final class K6Tags {

    /** No tags. */
    public static final K6Tags EMPTY = new K6Tags(new String[0], new String[0], 0);

    private final String[] keys;
    private final String[] values;
    private final int hash;

    K6Tags(String[] keys, String[] values, int hash) {
        this.keys = keys;
        this.values = values;
        this.hash = hash;
    }

    /** The value of {@code key}, or null when the point has no such tag. */
    public String get(String key) {
        for (int i = 0; i < keys.length; i++) {
            if (keys[i].equals(key)) {
                return values[i];
            }
        }
        return null;
    }

    /** The value of {@code key}, or {@code otherwise} when the point has no such tag. */
    public String getOrDefault(String key, String otherwise) {
        String v = get(key);
        return v == null ? otherwise : v;
    }

    /** How many tags. */
    public int size() {
        return keys.length;
    }

    /** The tags as an insertion-ordered map (a copy). */
    public Map<String, String> asMap() {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < keys.length; i++) {
            m.put(keys[i], values[i]);
        }
        return m;
    }

    /** True when this holds exactly these pairs, compared by identity (the reader's strings are interned). */
    boolean sameAs(String[] k, String[] v, int n) {
        if (n != keys.length) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            if (keys[i] != k[i] || values[i] != v[i]) {
                return false;
            }
        }
        return true;
    }

    int interningHash() {
        return hash;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof K6Tags t && Arrays.equals(keys, t.keys) && Arrays.equals(values, t.values);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(keys) + Arrays.hashCode(values);
    }

    @Override
    public String toString() {
        return asMap().toString();
    }
}
