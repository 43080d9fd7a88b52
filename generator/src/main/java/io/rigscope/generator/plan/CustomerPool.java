package io.rigscope.generator.plan;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Where an event's customer id comes from: a fixed list, or a numeric range rendered through a
 * {@link String#format} pattern ({@code cust-%d} with 1..1000 gives {@code cust-1} ... {@code cust-1000}), or
 * a column of a CSV file ({@link #fromCsv}). Each event draws uniformly. Immutable and thread-safe.
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

    /**
     * The ids in a column of a CSV file (the config's {@code customers: {file: F, column: C}}).
     *
     * @param ids the column's values in file order, none blank; {@link #toMap()} gives their count, never the
     *            values (a file may hold millions)
     */
    record FromFile(Path file, String column, List<String> ids) implements CustomerPool {
        public FromFile {
            Objects.requireNonNull(file, "file");
            Objects.requireNonNull(column, "column");
            ids = List.copyOf(Objects.requireNonNull(ids, "ids"));
            if (ids.isEmpty()) {
                throw new IllegalArgumentException("customers file " + file + ": column " + column + " holds no values");
            }
            for (String id : ids) {
                if (id == null || id.isBlank()) {
                    throw new IllegalArgumentException("customers file " + file + ": column " + column + " holds a blank id");
                }
            }
        }

        @Override
        public String draw(ThreadLocalRandom random) {
            return ids.get(random.nextInt(ids.size()));
        }

        @Override
        public Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("file", file.toString());
            m.put("column", column);
            m.put("count", ids.size());
            return m;
        }

        @Override
        public String toString() {
            return "FromFile[file=" + file + ", column=" + column + ", count=" + ids.size() + "]";
        }
    }

    /**
     * Reads the customer ids from column {@code column} of a CSV file: UTF-8 (a byte-order mark is skipped), a
     * header row naming the columns (matched after trimming spaces), then one record a line; fields separated by
     * commas, records by LF or CRLF; a field in double quotes may hold commas, line breaks and {@code ""} (one
     * quote), as RFC 4180 has it. Empty lines are skipped, and so are blank values; a value is kept as written
     * (not trimmed). Reads the whole column into memory.
     *
     * @throws IllegalArgumentException naming the file and what is wrong: no such file, not readable or not UTF-8,
     *                                  no header, no column {@code column} (listing the header's columns), a record
     *                                  too short to hold it or an unclosed quote (with its line), no values
     */
    static FromFile fromCsv(Path file, String column) {
        Objects.requireNonNull(file, "customers file");
        Objects.requireNonNull(column, "customers column");
        String at = "customers file " + file;
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            CsvRecords csv = new CsvRecords(in, at);
            List<String> header = csv.next();
            if (header == null) {
                throw new IllegalArgumentException(at + ": is empty (need a header row naming the columns)");
            }
            if (!header.isEmpty() && header.get(0).startsWith("\uFEFF")) {
                header.set(0, header.get(0).substring(1));
            }
            int index = -1;
            for (int i = 0; i < header.size() && index < 0; i++) {
                if (header.get(i).strip().equals(column)) {
                    index = i;
                }
            }
            if (index < 0) {
                throw new IllegalArgumentException(at + ": no column '" + column + "'; the header has " + header);
            }
            List<String> ids = new ArrayList<>();
            List<String> record;
            while ((record = csv.next()) != null) {
                if (record.size() == 1 && record.get(0).isEmpty()) {
                    continue; // an empty line
                }
                if (record.size() <= index) {
                    throw new IllegalArgumentException(at + ": line " + csv.recordLine() + " has " + record.size()
                            + " field(s); column '" + column + "' is field " + (index + 1));
                }
                String id = record.get(index);
                if (!id.isBlank()) {
                    ids.add(id);
                }
            }
            if (ids.isEmpty()) {
                throw new IllegalArgumentException(at + ": column '" + column + "' holds no values");
            }
            return new FromFile(file, column, ids);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException(at + ": no such file", e);
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException(at + ": is not UTF-8 text", e);
        } catch (IOException e) {
            throw new IllegalArgumentException(at + ": cannot be read: " + e, e);
        }
    }

    /** {@code cust-1} ... {@code cust-1000}: the default. */
    static CustomerPool defaults() {
        return new Ranged("cust-%d", 1, 1000);
    }
}
