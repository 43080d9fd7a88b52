package io.rigscope.rig.rescan;

import io.rigscope.collectors.CollectorContext;
import io.rigscope.collectors.vmstat.VmstatParser;
import io.rigscope.model.wire.Vmstat;
import io.rigscope.model.wire.WireRecord;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * {@code vmstat -n -t} text to {@code rig.vmstat}, any interval, through the collector's own parser: the header's
 * last column names the timestamp's zone ({@code UTC}, {@code CET}, ...). A line without a timestamp (vmstat
 * without {@code -t}) cannot be placed in time afterwards and is counted bad.
 */
final class VmstatFile implements EvidenceReader {

    private final String series;

    VmstatFile(String series) {
        this.series = series;
    }

    @Override
    public void read(Path file, Tally tally, Consumer<WireRecord> out) throws IOException {
        // the epoch clock stamps lines without a timestamp with 0, which no record accepts: they count as bad
        CollectorContext ctx = new CollectorContext(series, () -> 0, "host",
                Clock.fixed(Instant.EPOCH, ZoneOffset.UTC));
        VmstatParser parser = new VmstatParser(ctx, "vmstat@host", ZoneOffset.UTC);
        EvidenceText.eachLine(file, tally, (n, line) -> {
            long before = parser.rejected();
            Optional<Vmstat> v = parser.accept(line);
            if (v.isPresent()) {
                out.accept(v.get());
                tally.records++;
            } else if (parser.rejected() > before) {
                tally.bad(n, "not a vmstat -n -t line (a line without its timestamp cannot be placed)");
            }
        });
    }
}
