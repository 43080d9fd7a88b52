package io.rigscope.importers.evidence;

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
 *
 * <p>Its {@code src} names the host the file came from, by the file's name with {@code vmstat} and its extensions
 * taken out: {@code app-1-vmstat.log} and {@code vmstat-app-1.txt.gz} are {@code vmstat@app-1}; a bare
 * {@code vmstat.log} is {@code vmstat@host}. That is how the analyzer tells the load generator's host (the manifest's
 * {@code analyzer.attribution_generator_hosts}) from the database's (docs/rescan.md).
 */
final class VmstatFile implements EvidenceReader {

    private final String series;

    VmstatFile(String series) {
        this.series = series;
    }

    /** The host a vmstat file's name names: {@code app-1-vmstat.log} -> {@code app-1}; none -> {@code host}. */
    static String host(Path file) {
        String name = file.getFileName().toString().toLowerCase(java.util.Locale.ROOT);
        name = name.replaceAll("(\\.(gz|log|txt|out|vmstat))+$", "");
        name = name.replace("vmstat", "").replaceAll("[-_.]{2,}", "-").replaceAll("^[-_.]+|[-_.]+$", "");
        return name.isEmpty() ? "host" : name;
    }

    @Override
    public void read(Path file, Tally tally, Consumer<WireRecord> out) throws IOException {
        // the epoch clock stamps lines without a timestamp with 0, which no record accepts: they count as bad
        CollectorContext ctx = new CollectorContext(series, () -> 0, "host",
                Clock.fixed(Instant.EPOCH, ZoneOffset.UTC));
        VmstatParser parser = new VmstatParser(ctx, "vmstat@" + host(file), ZoneOffset.UTC);
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
