package io.rigscope.rig.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.rig.series.SeriesFile;
import org.junit.jupiter.api.Test;

/** The demo's built-in series files (every combination of {@code --quick} and {@code --hot-row}) read. */
class DemoPlanTest {

    @Test
    void everyBuiltInDemoFileReads() {
        for (boolean quick : new boolean[] {false, true}) {
            for (boolean hotRow : new boolean[] {false, true}) {
                SeriesFile file = DemoPlan.file("d", quick, hotRow);
                assertThat(file.startSut()).isTrue();
                assertThat(file.plan().reconciliationSql()).contains("usage_events");
                assertThat(file.watchTables()).containsExactly("usage_events", "api_keys");
            }
        }
    }
}
