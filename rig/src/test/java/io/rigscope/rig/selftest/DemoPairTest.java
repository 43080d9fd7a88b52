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
class DemoPairTest {

    @Test
    void twoQuickDemosSideBySideOnOneDataDirectoryBothEndReconciledWithNothingLost(@TempDir Path dir) {
        var progress = new ByteArrayOutputStream();
        DemoPair r = DemoPair.run("demo-pair-test", dir, new PrintStream(progress, true, StandardCharsets.UTF_8));
        String what = r + "\n" + progress.toString(StandardCharsets.UTF_8);
        System.out.println(what);
        assertThat(r.exitA()).as(what).isIn(0, 99);
        assertThat(r.exitB()).as(what).isIn(0, 99);
        assertThat(r.bOutlivedA()).as(what).isTrue();
        assertThat(r.sameBroker()).as(what).isTrue();
        assertThat(r.reportsWritten()).as(what).isTrue();
        assertThat(r.repeatsA()).as(what).isPositive().isEqualTo(r.reconciledA());
        assertThat(r.repeatsB()).as(what).isPositive().isEqualTo(r.reconciledB());
        assertThat(r.lostA()).as(what).isZero();
        assertThat(r.lostB()).as(what).isZero();
        assertThat(r.stackTraces()).as(what).isZero();
        assertThat(r.holds()).isTrue();
    }
}
