package io.rigscope.analyzer.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.analyzer.decision.SeriesReport;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.model.codec.WireLine;
import io.rigscope.model.topic.Topic;
import io.rigscope.model.wire.Vmstat;
import io.rigscope.model.wire.WireExamples;
import io.rigscope.model.wire.WireRecord;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The report page inlines the series' telemetry the page plots, and nothing else, in a stable order. */
class HtmlReportTest {

    static final String SERIES = "s-2026-11-30a";   // the series of every WireExamples record
    static final WireCodec CODEC = new WireCodec();

    private static String line(WireRecord r) {
        return SeriesPage.scriptSafe(WireLine.of(CODEC, r).render(CODEC));
    }

    @Test
    void thePageHoldsTheSeriesRecordsOfThePlottedTopicsOnly() {
        List<WireRecord> all = WireExamples.all();
        Vmstat mine = (Vmstat) all.stream().filter(r -> r.topic() == Topic.VMSTAT).findFirst().orElseThrow();
        Vmstat other = new Vmstat("another-series", 1, mine.src(), mine.ts(), 7, 0, 0, 1, 1, 1, 0, 0, 0, 0, 1, 1,
                1, 1, 98, 0, 0, null);
        List<WireRecord> input = new ArrayList<>(all);
        input.add(other);

        String page = HtmlReport.render(SeriesReport.of(SERIES, List.of(), false, 0), List.of(), input);

        for (WireRecord r : all) {
            boolean plotted = SeriesPage.TELEMETRY_TOPICS.contains(r.topic());
            assertThat(page.contains(line(r))).as(r.topic().topicName()).isEqualTo(plotted);
        }
        assertThat(page).doesNotContain("another-series");
        assertThat(SeriesPage.TELEMETRY_TOPICS).containsExactlyInAnyOrder(Topic.VMSTAT, Topic.OS, Topic.DB,
                Topic.WAITS, Topic.CANARY, Topic.HEALTH);
    }

    @Test
    void theSameRecordsInAnotherArrivalOrderGiveTheSamePage() {
        List<WireRecord> shuffled = new ArrayList<>(WireExamples.all());
        Collections.reverse(shuffled);
        SeriesReport report = SeriesReport.of(SERIES, List.of(), false, 0);

        assertThat(HtmlReport.render(report, List.of(), shuffled))
                .isEqualTo(HtmlReport.render(report, List.of(), WireExamples.all()));
    }
}
