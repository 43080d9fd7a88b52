package io.rigscope.collectors.vmstat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.rigscope.collectors.CollectorContext;
import io.rigscope.model.wire.Vmstat;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class VmstatParserTest {

    /** Verbatim output of {@code vmstat -n -t 1} (procps-ng 4.0.2) on this machine. */
    private static final List<String> REAL = List.of(
            "procs -----------memory---------- ---swap-- -----io---- -system-- ------cpu----- -----timestamp-----",
            " r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st                 UTC",
            " 4  0      0 23955832   4556 338932    0    0   703   921  169  389 12  2 86  0  0 2026-11-30 02:21:07",
            " 4  0      0 23955832   4556 338932    0    0  3440   320 1283 3667 80  6 14  0  0 2026-11-30 02:21:08",
            " 3  0      0 23955832   4556 338932    0    0     4   172 1465 2868 87  6  7  1  0 2026-11-30 02:21:09");

    private final CollectorContext ctx = CollectorContext.of("s1");

    @Test
    void realLinesParseEveryColumnAndTheTimestampInTheHeadersZone() {
        var parser = new VmstatParser(ctx, "vmstat@h", java.time.ZoneId.of("Europe/Paris"));
        List<Vmstat> rows = REAL.stream().map(parser::accept).flatMap(Optional::stream).toList();

        assertThat(rows).hasSize(3);
        Vmstat second = rows.get(1);
        assertThat(second.ts()).isEqualTo(Instant.parse("2026-11-30T02:21:08Z").getEpochSecond() * 1_000_000L);
        assertThat(second).extracting(Vmstat::r, Vmstat::b, Vmstat::swpd, Vmstat::free, Vmstat::buff, Vmstat::cache,
                Vmstat::si, Vmstat::so, Vmstat::bi, Vmstat::bo, Vmstat::in, Vmstat::cs)
                .containsExactly(4L, 0L, 0L, 23955832L, 4556L, 338932L, 0L, 0L, 3440L, 320L, 1283L, 3667L);
        assertThat(second).extracting(Vmstat::us, Vmstat::sy, Vmstat::id, Vmstat::wa, Vmstat::st, Vmstat::gu)
                .containsExactly(80, 6, 14, 0, 0, null);
        assertThat(parser.rejected()).isZero();
    }

    @Test
    void newerProcpsWithAGuestColumnAndRepeatedHeadersParse() {
        var parser = new VmstatParser(ctx, "vmstat@h", null);
        List<String> lines = List.of(
                "procs -----------memory---------- ---swap-- -----io---- -system-- -------cpu------- -----timestamp-----",
                " r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st gu                 UTC",
                " 1  2      3      4      5      6    7    8     9    10   11   12 13 14 15 16 17 18 2026-11-30 02:21:07",
                "procs -----------memory---------- ---swap-- -----io---- -system-- -------cpu------- -----timestamp-----",
                " r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st gu                 UTC",
                " 1  2      3      4      5      6    7    8     9    10   11   12 13 14 15 16 17  5 2026-11-30 02:21:08");
        List<Vmstat> rows = lines.stream().map(parser::accept).flatMap(Optional::stream).toList();

        assertThat(rows).extracting(Vmstat::gu).containsExactly(18, 5);
        assertThat(rows.get(0).st()).isEqualTo(17);
    }

    @Test
    void garbageIsRejectedAndCountedWithoutThrowing() {
        var parser = new VmstatParser(ctx, "vmstat@h", null);
        parser.accept(REAL.get(1));
        assertThatCode(() -> {
            for (String g : List.of("x y z", " 1 2 3", "", "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 notadate 25:99:99",
                    "\u0000", " r")) {
                assertThat(parser.accept(g)).isEmpty();
            }
        }).doesNotThrowAnyException();
        assertThat(parser.rejected()).isEqualTo(4);
    }
}
