package io.rigscope.rig.selftest;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.localenv.testing.KafkaBroker;
import java.io.PrintStream;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** selftest's "generator killed mid-repeat" case on its own: a real generate child, SIGKILL, a real broker. */
@Timeout(300)
@Tag("it")
class GeneratorKillTest {

    @RegisterExtension
    static final KafkaBroker broker = new KafkaBroker();

    @TempDir
    Path dir;

    @Test
    void aGeneratorKilledMidRepeatIsJudgedSilentWithinTheGraceAndTheReplayAgrees() {
        GeneratorKill k = GeneratorKill.run(broker.bootstrap(), "selftest-kill-" + System.nanoTime(), dir,
                new PrintStream(PrintStream.nullOutputStream()));
        assertThat(k.killExit()).isEqualTo(137);
        assertThat(k.endedBy()).isEqualTo("generator_silent");
        assertThat(k.passed()).isFalse();
        assertThat(k.silence()).startsWith("generator gen-1 silent since ");
        assertThat(k.judgedAfterSec()).isBetween(0.0, k.graceSec() + 3.0);
        assertThat(k.identical()).isTrue();
        assertThat(k.holds()).isTrue();
    }
}
