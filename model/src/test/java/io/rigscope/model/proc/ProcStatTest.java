package io.rigscope.model.proc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

class ProcStatTest {

    /** A real line of a thread whose name holds spaces and parentheses, and an ')' followed by a space. */
    private static final String ODD = "4242 (my (odd) ) name) S 1 4242 4242 0 -1 4194560 1790 0 3 0 "
            + "211 114 7 9 20 0 23 0 4105 2542706688 12101 18446744073709551615 1 1 0 0 0 0 0 4096 16898 0 0 0 17 1 0 0 "
            + "0 0 0 0 0 0 0 0 0 0 0";

    @Test
    void theFieldsAreCountedFromTheLastParenthesisSoACommandWithSpacesAndParenthesesDoesNotShiftThem() {
        ProcStat s = ProcStat.parse(ODD);
        assertThat(s.command()).isEqualTo("my (odd) ) name");
        assertThat(s.state()).isEqualTo('S');
        assertThat(s.userTicks()).isEqualTo(211);
        assertThat(s.systemTicks()).isEqualTo(114);
        assertThat(s.childrenUserTicks()).isEqualTo(7);
        assertThat(s.childrenSystemTicks()).isEqualTo(9);
        assertThat(s.threads()).isEqualTo(23);
        assertThat(s.cpuNanos()).isEqualTo(325 * 10_000_000L);
        assertThat(s.childrenCpuSec()).isEqualTo(0.16);
        assertThat(ProcStat.stateOf(ODD)).isEqualTo('S');
    }

    @Test
    @EnabledOnOs(OS.LINUX)
    void thisProcessesOwnStatFileHasItsThreadsAndSomeCpuAndThisThreadIsRunning() throws IOException {
        ProcStat self = ProcStat.read(Path.of("/proc/self/stat"));
        // the process's line is its main thread's state, which may be waiting; the reading thread's own line says R
        assertThat(self.state()).isIn('R', 'S', 'D');
        assertThat(ProcStat.read(Path.of("/proc/thread-self/stat")).state()).isEqualTo('R');
        assertThat(self.threads()).isGreaterThanOrEqualTo(Thread.activeCount());
        assertThat(self.command()).isNotBlank();
        assertThat(ProcStat.ofPid(ProcessHandle.current().pid()).cpuNanos()).isPositive();
        assertThat(ProcStat.stateOf(Files.readString(Path.of("/proc/thread-self/stat")))).isEqualTo('R');
    }

    @Test
    void aLineWithoutACommandOrWithTooFewFieldsIsRefused() {
        assertThatThrownBy(() -> ProcStat.parse("4242 S 1 2 3")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no (command)");
        assertThatThrownBy(() -> ProcStat.parse("4242 (x) S 1 2 3")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("too few fields");
        assertThat(ProcStat.stateOf("4242 (x")).isEqualTo('?');
    }

    @Test
    void aProcessThatDoesNotExistIsNamedInTheFailure() {
        assertThatThrownBy(() -> ProcStat.ofPid(Long.MAX_VALUE)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("/proc/" + Long.MAX_VALUE + "/stat");
    }
}
