package io.rigscope.model.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ServerTimingParserTest {

    private final ServerTimingParser parser = new ServerTimingParser();

    @Test
    void theSutsHeaderBecomesMicrosecondsInItsOrder() {
        ServerTiming t = parser.parse("pool;dur=0.12, db;dur=3.4, app;dur=0.251");

        assertThat(t.asMap()).containsExactly(Map.entry("pool", 120L), Map.entry("db", 3400L), Map.entry("app", 251L));
        assertThat(parser.malformed()).isZero();
    }

    @Test
    void parametersInAnyOrderQuotedStringsAndSpacesAreRead() {
        ServerTiming t = parser.parse("cache;desc=\"hit, cold\";dur=2 ,  db ; DUR = 7.5 ; desc=insert");

        assertThat(t.asMap()).containsExactly(Map.entry("cache", 2000L), Map.entry("db", 7500L));
        assertThat(parser.malformed()).isZero();
    }

    @Test
    void aMetricWithoutDurIsSkippedAndNotCountedAsMalformed() {
        ServerTiming t = parser.parse("miss, db;dur=1, edge;desc=\"x\"");

        assertThat(t.asMap()).containsExactly(Map.entry("db", 1000L));
        assertThat(parser.malformed()).isZero();
    }

    @Test
    void theFirstOfARepeatedNameIsKept() {
        assertThat(parser.parse("db;dur=1, db;dur=9").asMap()).containsExactly(Map.entry("db", 1000L));
    }

    @Test
    void malformedMetricsAreSkippedCountedAndTheRestIsStillRead() {
        ServerTiming t = parser.parse("db;dur=-1, app;dur=abc, @bad;dur=1, pool;dur=0.5, x;dur=1e3, y;dur=NaN, "
                + "z;dur=, w;;dur=1, ok;dur=2");

        assertThat(t.asMap()).containsExactly(Map.entry("pool", 500L), Map.entry("ok", 2000L));
        assertThat(parser.malformed()).isEqualTo(7);
    }

    @Test
    void garbageNeverThrows() {
        String[] garbage = {"", "   ", ",,,", ";", "=", "\"", "db;dur=\"1", "db;desc=\"unterminated, app;dur=1",
            "db;dur=1;", "\u0000\u0001", "db dur=1", "a".repeat(65) + ";dur=1", "db;dur=99999999999999999999"};
        for (String g : garbage) {
            ServerTiming t = parser.parse(g);
            assertThat(t).isNotNull();
        }
        assertThat(parser.parse(null)).isSameAs(ServerTiming.NONE);
        assertThat(parser.malformed()).isGreaterThanOrEqualTo(6);
    }

    @Test
    void moreThanSixteenMetricsKeepsTheFirstSixteenAndCountsTheRest() {
        StringBuilder h = new StringBuilder();
        for (int i = 0; i < 18; i++) {
            h.append(i == 0 ? "" : ", ").append("m").append(i).append(";dur=1");
        }

        ServerTiming t = parser.parse(h);

        assertThat(t.size()).isEqualTo(ServerTiming.MAX_METRICS);
        assertThat(parser.malformed()).isEqualTo(2);
    }

    @Test
    void aHeaderWithNothingUsableIsNone() {
        assertThat(parser.parse("miss, hit")).isSameAs(ServerTiming.NONE);
    }
}
