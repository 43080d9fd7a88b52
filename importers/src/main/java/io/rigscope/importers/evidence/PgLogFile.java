package io.rigscope.importers.evidence;

import io.rigscope.collectors.CollectorContext;
import io.rigscope.collectors.pglog.LogLinePrefix;
import io.rigscope.collectors.pglog.PgLogParser;
import io.rigscope.model.wire.PgLogEvent;
import io.rigscope.model.wire.WireRecord;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.function.Consumer;

/**
 * A PostgreSQL stderr log to {@code rig.pglog} through the collector's own parser, with the prefix the sniffer
 * matched (or {@code --pglog-prefix}); each entry is stamped by its own prefix time and zone (RDS logs UTC). A line
 * no entry can hold (the collector would publish it RAW, stamped by its clock) has no time of its own here: it is
 * counted bad and not published.
 */
final class PgLogFile implements EvidenceReader {

    private static final Instant NO_TIME = Instant.ofEpochSecond(1);
    private static final long NO_TIME_US = 1_000_000L;

    private final String series;
    private final String prefix;

    PgLogFile(String series, String prefix) {
        this.series = series;
        this.prefix = prefix;
    }

    @Override
    public void read(Path file, Tally tally, Consumer<WireRecord> out) throws IOException {
        // the parser stamps what has no time of its own with the clock: 1 s after the epoch marks it here
        CollectorContext ctx = new CollectorContext(series, () -> 0, "db", Clock.fixed(NO_TIME, ZoneOffset.UTC));
        PgLogParser parser = new PgLogParser(LogLinePrefix.of(prefix, ZoneOffset.UTC), ctx, "pglog@db");
        try (BufferedReader r = EvidenceText.open(file)) {
            String line;
            long n = 0;
            while ((line = r.readLine()) != null) {
                n++;
                tally.lines++;
                emit(parser.accept(line), n, tally, out);
            }
            emit(parser.flush(), n, tally, out);
        }
        if (tally.records == 0 && tally.lines > 0) {
            tally.note("no autovacuum, analyze, checkpoint or error entry (prefix '" + prefix + "')");
        }
    }

    private static void emit(List<PgLogEvent> events, long lineNo, Tally tally, Consumer<WireRecord> out) {
        for (PgLogEvent e : events) {
            if (e.kind() == PgLogEvent.Kind.RAW || e.ts() <= NO_TIME_US) {
                tally.bad(lineNo, "no log_line_prefix: " + (e.message() == null ? "" : e.message()));
                continue;
            }
            out.accept(e);
            tally.records++;
        }
    }
}
