package io.rigscope.collectors.pglog;

import io.rigscope.collectors.CollectorContext;
import io.rigscope.model.wire.PgLogEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Turns Postgres stderr log lines into {@link PgLogEvent}s, one line at a time.
 *
 * <p>An entry starts at a line that matches the {@link LogLinePrefix} and a severity. Tab-indented lines
 * that follow belong to it (multi-line autovacuum reports), and so do DETAIL, HINT, CONTEXT, QUERY,
 * LOCATION and STATEMENT lines of the same process. An entry is complete when the next entry starts or when
 * {@link #flush()} is called (the tailer calls it when the file goes quiet). Complete entries become
 * AUTOVACUUM, AUTOANALYZE, CHECKPOINT_START, CHECKPOINT_COMPLETE, ERROR, FATAL or PANIC events; other
 * well-formed entries (connection logs, WARNING, ...) are counted as {@link Counts#ignored()} and not
 * published. A line that neither starts an entry nor continues one becomes a {@link PgLogEvent.Kind#RAW}
 * event holding the line as is, stamped with the clock, and is counted in {@link Counts#raw()}. No input
 * makes it throw.
 *
 * <p>Not thread-safe: one parser per log stream.
 */
public final class PgLogParser {

    private static final Set<String> ATTACHED = Set.of("DETAIL", "HINT", "CONTEXT", "QUERY", "LOCATION", "STATEMENT");
    private static final int MAX_ENTRY_LINES = 500;
    private static final int MAX_RAW_CHARS = 8_192;

    private final LogLinePrefix prefix;
    private final CollectorContext ctx;
    private final String src;
    private final LogEventClassifier classifier = new LogEventClassifier();
    private LogEntry.Builder pending;
    private long lines;
    private long events;
    private long raw;
    private long ignored;

    /**
     * @param prefix the server's log_line_prefix
     * @param ctx series and repeat for the events
     * @param src the producer id, e.g. {@code pglog@db-1}
     */
    public PgLogParser(LogLinePrefix prefix, CollectorContext ctx, String src) {
        this.prefix = Objects.requireNonNull(prefix, "prefix");
        this.ctx = Objects.requireNonNull(ctx, "ctx");
        this.src = Objects.requireNonNull(src, "src");
    }

    /** Feeds one line (without its line terminator); returns the events that it completed, often none. */
    public List<PgLogEvent> accept(String line) {
        lines++;
        List<PgLogEvent> out = new ArrayList<>(1);
        if (line == null || line.isEmpty()) {
            return out;
        }
        Optional<LogLinePrefix.Head> head = prefix.match(line);
        if (head.isPresent()) {
            LogLinePrefix.Head h = head.get();
            if (pending != null && ATTACHED.contains(h.level()) && Objects.equals(pending.pid, h.pid())) {
                pending.add(h.level() + ":  " + h.message());
                return out;
            }
            complete(out);
            pending = new LogEntry.Builder(h.tsUs(), h.pid(), h.level(), h.message());
            return out;
        }
        if (pending != null && (line.charAt(0) == '\t' || line.startsWith("    ")) && pending.size() < MAX_ENTRY_LINES) {
            pending.add(line.strip());
            return out;
        }
        complete(out);
        raw++;
        events++;
        out.add(new PgLogEvent(ctx.run(), ctx.rep(), src, ctx.nowUs(), PgLogEvent.Kind.RAW, null, null, null,
                line.length() > MAX_RAW_CHARS ? line.substring(0, MAX_RAW_CHARS) : line));
        return out;
    }

    /** Completes the pending entry, if any; returns its event, if it is one. */
    public List<PgLogEvent> flush() {
        List<PgLogEvent> out = new ArrayList<>(1);
        complete(out);
        return out;
    }

    /** What the parser has seen so far. */
    public Counts counts() {
        return new Counts(lines, events, raw, ignored);
    }

    private void complete(List<PgLogEvent> out) {
        if (pending == null) {
            return;
        }
        LogEntry entry = pending.build();
        pending = null;
        Optional<LogEventClassifier.Classified> c = classifier.classify(entry);
        if (c.isEmpty()) {
            ignored++;
            return;
        }
        long ts = entry.tsUs() != null && entry.tsUs() > 0 ? entry.tsUs() : ctx.nowUs();
        events++;
        out.add(new PgLogEvent(ctx.run(), ctx.rep(), src, ts, c.get().kind(), entry.pid(), c.get().table(),
                c.get().metrics(), entry.firstLine()));
    }

    /**
     * Counts since the parser was made.
     *
     * @param lines lines fed
     * @param events events returned (RAW included)
     * @param raw lines kept as RAW events because no entry could hold them
     * @param ignored well-formed entries of kinds rigscope does not track
     */
    public record Counts(long lines, long events, long raw, long ignored) {
    }
}
