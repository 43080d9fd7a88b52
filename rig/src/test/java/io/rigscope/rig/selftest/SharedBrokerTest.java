package io.rigscope.rig.selftest;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@Tag("it")
class SharedBrokerTest {

    @Test
    void aSecondCommandOutlivesTheFirstOnItsBrokerAndABrokerKilledUnderItIsRestartedWithNothingLost(
            @TempDir Path dir) {
        var progress = new ByteArrayOutputStream();
        SharedBroker r = SharedBroker.run("shared-test", dir, new PrintStream(progress, true, StandardCharsets.UTF_8));
        String what = r + "\n" + progress.toString(StandardCharsets.UTF_8);
        System.out.println(what);
        assertThat(r.exitA()).as(what).isZero();
        assertThat(r.exitB()).as(what).isZero();
        assertThat(r.sameBroker()).as(what).isTrue();
        assertThat(r.restarted()).as(what).isTrue();
        assertThat(r.sentB()).as(what).isPositive().isEqualTo(r.samplesB());
        assertThat(r.sentA()).as(what).isPositive().isEqualTo(r.samplesA());
        assertThat(r.repeatsA()).as(what).isEqualTo(1);
        assertThat(r.repeatsB()).as(what).isEqualTo(1);
        assertThat(r.stackTraces()).as(what).isZero();
        assertThat(r.holds()).isTrue();
    }
}
