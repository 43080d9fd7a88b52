package io.rigscope.collectors;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.collectors.pglog.LogLinePrefix;
import io.rigscope.collectors.pglog.PgLogParser;
import io.rigscope.collectors.vmstat.VmstatParser;
import io.rigscope.localenv.testing.Mutations;
import java.time.ZoneOffset;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Property tests of the line parsers the collectors run on other programs' output: whatever the line (random text,
 * or a real line cut, with characters replaced, inserted or dropped), parsing never throws; a line is a record or is
 * counted as rejected.
 */
class LineParsersPropertiesTest {

    private static final List<String> VMSTAT = List.of(
            "procs -----------memory---------- ---swap-- -----io---- -system-- ------cpu----- -----timestamp-----",
            " r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st                 UTC",
            " 2  0      0 18734112  81236 4021880    0    0     0  5312 9877 14221 31  9 57  3  0 2026-11-30 10:00:01");
    private static final List<String> PGLOG = List.of(
            "2026-11-30 10:00:01.123 UTC [4411] LOG:  automatic vacuum of table \"app.public.usage_events\": index scans: 1",
            "\tpages: 0 removed, 81920 remain, 40113 scanned (48.97% of total)",
            "\tWAL usage: 80214 records, 40110 full page images, 331145213 bytes",
            "2026-11-30 10:00:02.456 UTC [77] LOG:  checkpoint complete: wrote 2041 buffers (12.5%); 0 WAL file(s) added, 3 removed, 0 recycled; write=26.9 s",
            "2026-11-30 10:00:03.001 UTC [812] ERROR:  duplicate key value violates unique constraint \"x\"");

    @Provide
    Arbitrary<String> vmstatLines() {
        return Mutations.of(VMSTAT, 5);
    }

    @Provide
    Arbitrary<String> pgLogLines() {
        return Mutations.of(PGLOG, 5);
    }

    @Property(tries = 500)
    void vmstatNeverThrowsAndNeverReadsARecordFromALineWithoutEveryColumn(@ForAll("vmstatLines") String line) {
        VmstatParser parser = new VmstatParser(CollectorContext.of("s"), "vmstat@h", ZoneOffset.UTC);
        parser.accept(VMSTAT.get(0));
        parser.accept(VMSTAT.get(1));
        boolean record = parser.accept(line).isPresent();
        if (record) {
            assertThat(line.trim().split("\\s+").length).isGreaterThanOrEqualTo(17);
        }
    }

    @Property(tries = 500)
    void thePostgresLogParserNeverThrows(@ForAll("pgLogLines") String first, @ForAll("pgLogLines") String second) {
        PgLogParser parser = new PgLogParser(LogLinePrefix.defaults(), CollectorContext.of("s"), "pglog@h");
        parser.accept(first);
        parser.accept(second);
        parser.flush();
        assertThat(parser.counts().lines()).isEqualTo(2);
    }
}
