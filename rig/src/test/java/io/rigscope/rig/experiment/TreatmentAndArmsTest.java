package io.rigscope.rig.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The treatment's text, the arms' order, and the lever read from a real report's episodes
 * (analyzer/src/test/resources/compare: run B's wal_pool episodes carry min_wal_size levers, run A's only the
 * generator's actions).
 */
class TreatmentAndArmsTest {

    private static final Path COMPARE = Path.of("..", "analyzer", "src", "test", "resources", "compare");

    @Test
    void settingsAreParsedInOrderAndLeverIsAWordOfItsOwn() {
        Experiment.Treatment t = Experiment.Treatment.parse(" min_wal_size=7GB, wal_recycle = on ,auto_explain.log_min_duration='250ms'");
        assertThat(t.fromLever()).isFalse();
        assertThat(t.settings()).containsExactly(java.util.Map.entry("min_wal_size", "7GB"),
                java.util.Map.entry("wal_recycle", "on"), java.util.Map.entry("auto_explain.log_min_duration", "250ms"));
        assertThat(t.describe()).isEqualTo("min_wal_size=7GB, wal_recycle=on, auto_explain.log_min_duration=250ms");
        Experiment.Treatment lever = Experiment.Treatment.parse("lever");
        assertThat(lever.fromLever()).isTrue();
        assertThat(lever.settings()).isEmpty();
        assertThat(lever.withSettings(java.util.Map.of("wal_recycle", "on")).describe()).isEqualTo("wal_recycle=on");
    }

    @Test
    void aBadTreatmentIsRefusedSayingWhatIsWrong() {
        assertThatThrownBy(() -> Experiment.Treatment.parse("")).hasMessageContaining("empty");
        assertThatThrownBy(() -> Experiment.Treatment.parse("min_wal_size")).hasMessageContaining("'min_wal_size' is not KEY=VALUE");
        assertThatThrownBy(() -> Experiment.Treatment.parse("min_wal_size=")).hasMessageContaining("min_wal_size has no value");
        assertThatThrownBy(() -> Experiment.Treatment.parse("1abc=2")).hasMessageContaining("'1abc' is not a Postgres setting's name");
        assertThatThrownBy(() -> Experiment.Treatment.parse("x;drop=1")).hasMessageContaining("not a Postgres setting's name");
        assertThatThrownBy(() -> Experiment.Treatment.parse("a=1,a=2")).hasMessageContaining("a is given twice");
        assertThatThrownBy(() -> Experiment.Treatment.parse("a=1,")).hasMessageContaining("'' is not KEY=VALUE");
    }

    @Test
    void armsAlternateControlFirst() {
        assertThat(ExperimentResult.ArmOrder.of(3)).extracting(ExperimentResult.ArmOrder.Arm::label).containsExactly("A1", "B1", "A2", "B2", "A3", "B3");
        assertThat(ExperimentResult.ArmOrder.of(1)).extracting(ExperimentResult.ArmOrder.Arm::side).containsExactly("control", "treatment");
        assertThatThrownBy(() -> ExperimentResult.ArmOrder.of(0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theLeverIsTheProvokedCausesEpisodeWithTheMostFreezeSeconds() throws Exception {
        JsonNode runB = new ObjectMapper().readTree(COMPARE.resolve("run-b.report.json").toFile());
        LeverChoice c = LeverChoice.of(runB, "wal_pool");
        // rep 3's wal_pool episode (9 freeze-seconds, 224MB) has more than rep 4's (6, 256MB); the generator's
        // episode has more still, but its lever is an action, not a setting
        assertThat(c.cause()).isEqualTo("wal_pool");
        assertThat(c.rep()).isEqualTo(3);
        assertThat(c.settings()).containsExactly(java.util.Map.entry("min_wal_size", "224MB"));
        assertThat(c.describe()).isEqualTo("min_wal_size=224MB");
        assertThat(c.why()).contains("WAL rate");
    }

    @Test
    void noEpisodeWithASettingIsSaidWithWhatTheEpisodesNamed() throws Exception {
        JsonNode runA = new ObjectMapper().readTree(COMPARE.resolve("run-a.report.json").toFile());
        assertThatThrownBy(() -> LeverChoice.of(runA, "wal_pool")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("has no episode whose lever names a setting")
                .hasMessageContaining("generator (").hasMessageContaining("action: run the generator on a host");
    }
}
