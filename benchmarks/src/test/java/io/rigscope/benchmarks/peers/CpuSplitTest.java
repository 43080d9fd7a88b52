package io.rigscope.benchmarks.peers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@code --peer-cpus}: its three forms, CPU lists, and a value that is none of them. */
class CpuSplitTest {

    @Test
    void cpuListsExpandInOrderWithoutRepeats() {
        assertThat(CpuSplit.expand("0-2,5")).containsExactly(0, 1, 2, 5);
        assertThat(CpuSplit.expand("3,1,1-2")).containsExactly(1, 2, 3);
        assertThat(CpuSplit.expand("7")).containsExactly(7);
    }

    @Test
    void noneIsNotPinnedAndSaysSo() {
        StringBuilder why = new StringBuilder();
        assertThat(CpuSplit.parse("none", why)).isEmpty();
        assertThat(why.toString()).contains("--peer-cpus none");
    }

    @Test
    void autoPutsTheServerOnTheLastAllowedCpuAndTheToolsOnTheOthers() {
        StringBuilder why = new StringBuilder();
        Optional<CpuSplit> split = CpuSplit.parse("auto", why);
        List<Integer> cpus = CpuSplit.allowedCpus();
        if (cpus.size() < 2) {
            assertThat(split).isEmpty();
            assertThat(why.toString()).contains("fewer than 2");
            return;
        }
        split.ifPresentOrElse(s -> {
            assertThat(s.server()).isEqualTo(Integer.toString(cpus.get(cpus.size() - 1)));
            assertThat(CpuSplit.expand(s.tools())).isEqualTo(cpus.subList(0, cpus.size() - 1));
            assertThat(s.serverLauncher()).containsExactly("taskset", "-c", s.server());
        }, () -> assertThat(why.toString()).contains("taskset is not installed"));
    }

    @Test
    void anExplicitSplitIsKeptAndAnythingElseIsRefusedNamingTheFlag() {
        assertThatThrownBy(() -> CpuSplit.parse("1-0", new StringBuilder()))
                .hasMessageContaining("--peer-cpus '1-0'").hasMessageContaining("SERVER/TOOLS");
        assertThatThrownBy(() -> CpuSplit.parse("1/x", new StringBuilder())).hasMessageContaining("--peer-cpus");
        try {
            assertThat(CpuSplit.parse("1/0", new StringBuilder())).contains(new CpuSplit("1", "0"));
        } catch (IllegalArgumentException noTaskset) {
            assertThat(noTaskset).hasMessageContaining("taskset is not installed");
        }
    }
}
