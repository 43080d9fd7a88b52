package io.rigscope.analyzer.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AnalyzerSettingsTest {

    @Test
    void defaultsAreTheTableDefaults() {
        AnalyzerSettings d = AnalyzerSettings.defaults();
        Map<String, Object> fromTable = new java.util.LinkedHashMap<>();
        for (AnalyzerSetting s : AnalyzerSetting.values()) {
            fromTable.put(s.key(), s.defaultValue());
        }
        assertThat(d.withConfig(fromTable)).isEqualTo(d);
    }

    @Test
    void everySettingIsDocumentedInGatesMdWithItsUnitAndDefault() throws Exception {
        String doc = Files.readString(Path.of("..", "docs", "gates.md"));
        for (AnalyzerSetting s : AnalyzerSetting.values()) {
            assertThat(doc).contains("| `" + s.key() + "` | " + s.unit() + " | " + s.defaultValue() + " | " + s.doc() + " |");
        }
    }

    @Test
    void configMarkerKeysOverrideAndTheAnalyzerObjectOverridesTopLevelKeys() {
        AnalyzerSettings s = AnalyzerSettings.defaults().withConfig(Map.of(
                "freeze_worst_ms", 200, "drift_bound", "2.0", "generator", Map.of("rate", 5),
                "analyzer", Map.of("freeze_worst_ms", 250.5),
                "thresholds", Map.of("http_req_duration", List.of("p(99)<500"))));

        assertThat(s.freezeWorstUs()).isEqualTo(250_500);
        assertThat(s.driftBound()).isEqualTo(2.0);
        assertThat(s.thresholds()).hasSize(1);
    }

    @Test
    void aBadValueNamesItsKey() {
        assertThatThrownBy(() -> AnalyzerSettings.defaults().withConfig(Map.of("min_samples", "many")))
                .hasMessage("config key min_samples must be a number (samples), was many");
        assertThatThrownBy(() -> AnalyzerSettings.defaults().withConfig(Map.of("freeze_slow_fraction", 1.5)))
                .hasMessage("config key freeze_slow_fraction must be within [0, 1), was 1.5");
        assertThatThrownBy(() -> AnalyzerSettings.defaults().withConfig(Map.of("reconciliation_required", "yes")))
                .hasMessage("config key reconciliation_required must be true or false, was yes");
    }
}
