package io.rigscope.collectors.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class RdsMetricUnitsTest {

    @Test
    void theCollectorsDefaultMetricsTakeTheirUnitsFromTheOneTable() {
        CloudWatchCollector.DEFAULT_METRICS.forEach((metric, unit) ->
                assertThat(unit).isEqualTo(RdsMetricUnits.unit(metric)));
        assertThat(CloudWatchCollector.DEFAULT_METRICS).containsEntry("WriteIOPS", "Count/Second")
                .containsEntry("FreeableMemory", "Bytes").hasSize(6);
    }

    @Test
    void aMetricNamedInAnyCaseIsSpelledAsRdsSpellsIt() {
        assertThat(RdsMetricUnits.canonical("diskqueuedepth")).isEqualTo("DiskQueueDepth");
        assertThat(RdsMetricUnits.canonical("SomethingElse")).isEqualTo("SomethingElse");
        assertThat(RdsMetricUnits.unit("SomethingElse")).isEqualTo("None");
        assertThat(RdsMetricUnits.unit("EBSIOBalance%")).isEqualTo("Percent");
    }

    @Test
    void aMetricWithoutAUnitCannotBeSelected() {
        assertThatThrownBy(() -> RdsMetricUnits.of("WriteIOPS", "Nope")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Nope");
    }
}
