package io.rigscope.importers.k6;

import java.util.Arrays;

/**
 * The intern tables of one {@link K6LineReader}: strings by content, tag sets by their interned pairs, tag sets (and
 * metric names) by the bytes they were read from, and the few of those read last. Open addressing, bounded to
 * {@link K6LineReader#MAX_INTERNED} entries each (past that, values are returned without being kept). Not
 * thread-safe.
 */
final class K6Interning {

    private K6Interning() {
    }

    static int mix(int h) {
        return h ^ (h >>> 16) ^ (h >>> 7);
    }

    /**
     * Strings by content, open addressing; a bounded table. The hash samples a few characters (a run holds a few
     * dozen distinct names and values); a candidate is confirmed by comparing the characters in full.
     */
    static final class StringPool {
        private String[] strings = new String[1024];
        private char[][] chars = new char[1024][];
        private int[] hashes = new int[1024];
        private int size;

        String intern(char[] c, int off, int len) {
            int h = len == 0 ? 0 : len * 31 + c[off] * 961 + c[off + len - 1] * 29791 + c[off + (len >> 1)] * 7
                    + c[off + (len >> 2)] * 13 + c[off + len - 1 - (len >> 2)] * 17;
            int mask = strings.length - 1;
            int i = mix(h) & mask;
            char[] e;
            while ((e = chars[i]) != null) {
                if (hashes[i] == h && e.length == len && Arrays.equals(e, 0, len, c, off, off + len)) {
                    return strings[i];
                }
                i = (i + 1) & mask;
            }
            String s = new String(c, off, len);
            if (size < K6LineReader.MAX_INTERNED) {
                strings[i] = s;
                chars[i] = Arrays.copyOfRange(c, off, off + len);
                hashes[i] = h;
                if (++size * 2 > strings.length) {
                    grow();
                }
            }
            return s;
        }

        String intern(String text) {
            char[] c = text.toCharArray();
            return intern(c, 0, c.length);
        }

        private void grow() {
            String[] oldStrings = strings;
            char[][] oldChars = chars;
            int[] oldHashes = hashes;
            strings = new String[oldStrings.length * 2];
            chars = new char[strings.length][];
            hashes = new int[strings.length];
            int mask = strings.length - 1;
            for (int k = 0; k < oldStrings.length; k++) {
                if (oldChars[k] != null) {
                    int j = mix(oldHashes[k]) & mask;
                    while (chars[j] != null) {
                        j = (j + 1) & mask;
                    }
                    strings[j] = oldStrings[k];
                    chars[j] = oldChars[k];
                    hashes[j] = oldHashes[k];
                }
            }
        }
    }

    /** Tag sets by identity of their (interned) keys and values; a bounded table. */
    static final class TagPool {
        private K6Tags[] table = new K6Tags[256];
        private int size;

        K6Tags intern(String[] keys, String[] values, int n, int hash) {
            int mask = table.length - 1;
            int i = mix(hash) & mask;
            K6Tags t;
            while ((t = table[i]) != null) {
                if (t.interningHash() == hash && t.sameAs(keys, values, n)) {
                    return t;
                }
                i = (i + 1) & mask;
            }
            t = new K6Tags(Arrays.copyOf(keys, n), Arrays.copyOf(values, n), hash);
            if (size < K6LineReader.MAX_INTERNED) {
                table[i] = t;
                if (++size * 2 > table.length) {
                    K6Tags[] old = table;
                    table = new K6Tags[old.length * 2];
                    int m = table.length - 1;
                    for (K6Tags o : old) {
                        if (o != null) {
                            int j = mix(o.interningHash()) & m;
                            while (table[j] != null) {
                                j = (j + 1) & m;
                            }
                            table[j] = o;
                        }
                    }
                }
            }
            return t;
        }
    }

    /**
     * Values by the bytes they were read from (a tags object's JSON, a metric name), open addressing; a bounded
     * table. The hash samples at most 16 bytes; a candidate is confirmed by comparing the bytes in full.
     */
    static final class ByBytes<V> {
        private byte[][] keys = new byte[256][];
        private Object[] values = new Object[256];
        private int[] hashes = new int[256];
        private int size;

        private static int hash(byte[] b, int off, int len) {
            int h = len;
            int step = Math.max(1, len >> 4);
            for (int i = off; i < off + len; i += step) {
                h = 31 * h + b[i];
            }
            return h + b[off + len - 1];
        }

        @SuppressWarnings("unchecked")
        V get(byte[] b, int off, int len) {
            if (len == 0) {
                return null;
            }
            int h = hash(b, off, len);
            int mask = keys.length - 1;
            for (int i = mix(h) & mask; keys[i] != null; i = (i + 1) & mask) {
                if (hashes[i] == h && keys[i].length == len && Arrays.equals(keys[i], 0, len, b, off, off + len)) {
                    return (V) values[i];
                }
            }
            return null;
        }

        void put(byte[] b, int off, int len, V value) {
            if (size >= K6LineReader.MAX_INTERNED || len == 0) {
                return;
            }
            int h = hash(b, off, len);
            int mask = keys.length - 1;
            int i = mix(h) & mask;
            while (keys[i] != null) {
                i = (i + 1) & mask;
            }
            keys[i] = Arrays.copyOfRange(b, off, off + len);
            values[i] = value;
            hashes[i] = h;
            if (++size * 2 > keys.length) {
                byte[][] oldKeys = keys;
                Object[] oldValues = values;
                int[] oldHashes = hashes;
                keys = new byte[oldKeys.length * 2][];
                values = new Object[keys.length];
                hashes = new int[keys.length];
                int m = keys.length - 1;
                for (int k = 0; k < oldKeys.length; k++) {
                    if (oldKeys[k] != null) {
                        int j = mix(oldHashes[k]) & m;
                        while (keys[j] != null) {
                            j = (j + 1) & m;
                        }
                        keys[j] = oldKeys[k];
                        values[j] = oldValues[k];
                        hashes[j] = oldHashes[k];
                    }
                }
            }
        }
    }

    /**
     * The last {@value #SLOTS} values read from bytes, tried where they would start before the line is scanned for
     * its end and looked up in a {@link ByBytes}: k6 writes a request's points one after another, with the same
     * metric names and the same tags object.
     */
    static final class Recent<V> {
        private static final int SLOTS = 4;
        private final byte[][] keys = new byte[SLOTS][];
        private final Object[] values = new Object[SLOTS];
        private int newest = -1;
        private V found;

        /**
         * The length of the most recent key equal to {@code b[off, off + length)} and followed by {@code follow}
         * (before {@code end}), or -1; {@link #found()} is then its value.
         */
        @SuppressWarnings("unchecked")
        int find(byte[] b, int off, int end, byte follow) {
            for (int k = 0, slot = newest; k < SLOTS && slot >= 0; k++, slot = (slot + SLOTS - 1) % SLOTS) {
                byte[] key = keys[slot];
                if (key == null) {
                    return -1;
                }
                int len = key.length;
                if (off + len < end && b[off + len] == follow && Arrays.equals(key, 0, len, b, off, off + len)) {
                    found = (V) values[slot];
                    return len;
                }
            }
            return -1;
        }

        /** The value of the key {@link #find} found last. */
        V found() {
            return found;
        }

        /** Keeps {@code b[off, off + len)} and its value as the newest, in place of the oldest. */
        void remember(byte[] b, int off, int len, V value) {
            newest = (newest + 1) % SLOTS;
            keys[newest] = Arrays.copyOfRange(b, off, off + len);
            values[newest] = value;
        }
    }
}
