package io.rigscope.collectors.pglog;

import io.rigscope.model.wire.PgLogEvent;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns an assembled entry into an event kind, a table and numeric facts, following the messages in the
 * PostgreSQL 15-18 sources: {@code heap_vacuum_rel} in {@code vacuumlazy.c} (autovacuum),
 * {@code do_analyze_rel} in {@code analyze.c} (autoanalyze), {@code LogCheckpointStart}/{@code LogCheckpointEnd}
 * in {@code xlog.c} (checkpoints and restartpoints). Each fact is matched on its own, so lines a version adds
 * ({@code frozen:} in 16, {@code eagerly scanned} and {@code buffers full} in 18) or drops do not break the
 * others; PG18's {@code reads} and older versions' {@code misses} both land in {@code buffer_misses}.
 * Stateless, thread-safe.
 */
final class LogEventClassifier {

    private static final Pattern VACUUM = Pattern.compile(
            "^automatic (?:aggressive )?vacuum (?:to prevent wraparound )?of table \"([^\"]+)\"");
    private static final Pattern ANALYZE = Pattern.compile("^automatic analyze of table \"([^\"]+)\"");
    private static final Pattern CKPT_START = Pattern.compile("^(checkpoint|restartpoint) starting:(.*)$");
    private static final Pattern CKPT_DONE = Pattern.compile("^(checkpoint|restartpoint) complete:");

    /** A fact: a pattern and the metric names of its groups, in order (null skips a group). */
    private record Fact(Pattern pattern, String... names) {
    }

    private static final Fact[] VACUUM_FACTS = {
        new Fact(Pattern.compile("index scans: (\\d+)"), "index_scans"),
        new Fact(Pattern.compile("pages: (\\d+) removed, (\\d+) remain, (\\d+) scanned \\(([\\d.]+)% of total\\)"
                + "(?:, (\\d+) eagerly scanned)?"),
                "pages_removed", "pages_remain", "pages_scanned", "pages_scanned_pct", "pages_eagerly_scanned"),
        // PostgreSQL 14 and older count the pages skipped, not the pages scanned
        new Fact(Pattern.compile("pages: (\\d+) removed, (\\d+) remain, (\\d+) skipped due to pins, (\\d+) skipped frozen"),
                "pages_removed", "pages_remain", "pages_skipped_pins", "pages_skipped_frozen"),
        new Fact(Pattern.compile("tuples: (\\d+) removed, (\\d+) remain, (\\d+) are dead but not yet removable"),
                "tuples_removed", "tuples_remain", "tuples_dead_not_removable"),
        new Fact(Pattern.compile("frozen: (\\d+) pages from table \\(([\\d.]+)% of total\\) had (\\d+) tuples frozen"),
                "pages_frozen", null, "tuples_frozen"),
        new Fact(Pattern.compile("visibility map: (\\d+) pages set all-visible, (\\d+) pages set all-frozen"),
                "pages_set_all_visible", "pages_set_all_frozen"),
        new Fact(Pattern.compile("index scan (?:needed|not needed|bypassed(?: by failsafe)?): (\\d+) pages from table"
                + " \\(([\\d.]+)% of total\\) ha(?:d|ve) (\\d+) dead item identifiers"),
                "index_scan_pages", null, "dead_item_identifiers"),
        new Fact(Pattern.compile("I/O timings: read: ([\\d.]+) ms, write: ([\\d.]+) ms"), "io_read_ms", "io_write_ms"),
        new Fact(Pattern.compile("delay time: ([\\d.]+) ms"), "delay_ms"),
        new Fact(Pattern.compile("avg read rate: ([\\d.]+) MB/s, avg write rate: ([\\d.]+) MB/s"),
                "avg_read_mb_per_sec", "avg_write_mb_per_sec"),
        new Fact(Pattern.compile("buffer usage: (\\d+) hits, (\\d+) (?:misses|reads), (\\d+) dirtied"),
                "buffer_hits", "buffer_misses", "buffer_dirtied"),
        new Fact(Pattern.compile("WAL usage: (\\d+) records, (\\d+) full page images, (\\d+) bytes"
                + "(?:, (\\d+) buffers full)?"), "wal_records", "wal_fpi", "wal_bytes", "wal_buffers_full"),
        new Fact(Pattern.compile("CPU: user: ([\\d.]+) s, system: ([\\d.]+) s, elapsed: ([\\d.]+) s"),
                "cpu_user_s", "cpu_system_s", "elapsed_s"),
    };

    private static final Fact[] CHECKPOINT_FACTS = {
        new Fact(Pattern.compile("wrote (\\d+) buffers \\(([\\d.]+)%\\)"), "buffers_written", "buffers_written_pct"),
        new Fact(Pattern.compile("wrote (\\d+) SLRU buffers"), "slru_buffers_written"),
        new Fact(Pattern.compile("(\\d+) WAL file\\(s\\) added, (\\d+) removed, (\\d+) recycled"),
                "wal_files_added", "wal_files_removed", "wal_files_recycled"),
        new Fact(Pattern.compile("write=([\\d.]+) s, sync=([\\d.]+) s, total=([\\d.]+) s"),
                "write_s", "sync_s", "total_s"),
        new Fact(Pattern.compile("sync files=(\\d+), longest=([\\d.]+) s, average=([\\d.]+) s"),
                "sync_files", "sync_longest_s", "sync_average_s"),
        new Fact(Pattern.compile("distance=(\\d+) kB, estimate=(\\d+) kB"), "distance_kb", "estimate_kb"),
    };

    /** What the classifier made of an entry. */
    record Classified(PgLogEvent.Kind kind, String table, Map<String, Double> metrics) {
    }

    /** The event an entry is, or empty for entries rigscope does not track (other LOG lines, WARNING, ...). */
    Optional<Classified> classify(LogEntry entry) {
        String first = entry.firstLine();
        switch (entry.level()) {
            case "ERROR":
                return Optional.of(new Classified(PgLogEvent.Kind.ERROR, null, Map.of()));
            case "FATAL":
                return Optional.of(new Classified(PgLogEvent.Kind.FATAL, null, Map.of()));
            case "PANIC":
                return Optional.of(new Classified(PgLogEvent.Kind.PANIC, null, Map.of()));
            case "LOG":
                break;
            default:
                return Optional.empty();
        }
        Matcher m = VACUUM.matcher(first);
        if (m.find()) {
            return Optional.of(new Classified(PgLogEvent.Kind.AUTOVACUUM, m.group(1), facts(entry.text(), VACUUM_FACTS)));
        }
        m = ANALYZE.matcher(first);
        if (m.find()) {
            return Optional.of(new Classified(PgLogEvent.Kind.AUTOANALYZE, m.group(1), facts(entry.text(), VACUUM_FACTS)));
        }
        m = CKPT_START.matcher(first);
        if (m.find()) {
            Map<String, Double> flags = new LinkedHashMap<>();
            for (String flag : m.group(2).trim().split("\\s+")) {
                if (!flag.isEmpty()) {
                    flags.put("flag_" + flag.replace('-', '_'), 1.0);
                }
            }
            if (m.group(1).equals("restartpoint")) {
                flags.put("restartpoint", 1.0);
            }
            return Optional.of(new Classified(PgLogEvent.Kind.CHECKPOINT_START, null, flags));
        }
        m = CKPT_DONE.matcher(first);
        if (m.find()) {
            Map<String, Double> facts = facts(entry.text(), CHECKPOINT_FACTS);
            if (m.group(1).equals("restartpoint")) {
                facts.put("restartpoint", 1.0);
            }
            return Optional.of(new Classified(PgLogEvent.Kind.CHECKPOINT_COMPLETE, null, facts));
        }
        return Optional.empty();
    }

    private static Map<String, Double> facts(String text, Fact[] facts) {
        Map<String, Double> out = new LinkedHashMap<>();
        for (Fact fact : facts) {
            Matcher m = fact.pattern().matcher(text);
            if (!m.find()) {
                continue;
            }
            for (int g = 0; g < fact.names().length && g < m.groupCount(); g++) {
                String name = fact.names()[g];
                String value = m.group(g + 1);
                if (name != null && value != null) {
                    try {
                        out.put(name, Double.parseDouble(value));
                    } catch (NumberFormatException ignored) {
                        // a field that is not a number is left out; the rest of the entry still counts
                    }
                }
            }
        }
        return out;
    }
}
