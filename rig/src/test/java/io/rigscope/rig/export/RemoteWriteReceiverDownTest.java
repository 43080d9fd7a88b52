package io.rigscope.rig.export;

import static io.rigscope.rig.cli.RigscopeRun.rigscope;
import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.localenv.net.LoopbackPorts;
import io.rigscope.rig.cli.RigscopeRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --prometheus-rw} to a receiver that is down: the run's verdict and report are those of a run without it. */
@Tag("it")
class RemoteWriteReceiverDownTest {

    @Test
    void aReceiverThatIsDownLeavesVerdictAndReportUnchangedAndOneLineSaysWhatWasNotSent(@TempDir Path dir)
            throws Exception {
        Path recorded = PrometheusRemoteWriteTest.RECORDED;
        String series = PrometheusRemoteWriteTest.SERIES;
        long startedWithout = System.nanoTime();
        RigscopeRun without = rigscope("analyze", "--series", series, "--input", recorded.toString(), "--quiet",
                "--report-json", dir.resolve("without.json").toString());
        double withoutSec = (System.nanoTime() - startedWithout) / 1e9;
        int nobody = LoopbackPorts.free();
        long started = System.nanoTime();
        RigscopeRun with = rigscope("analyze", "--series", series, "--input", recorded.toString(), "--quiet",
                "--report-json", dir.resolve("with.json").toString(),
                "--prometheus-rw", "http://127.0.0.1:" + nobody + "/api/v1/write");
        double withSec = (System.nanoTime() - started) / 1e9;

        assertThat(with.exit()).isEqualTo(without.exit()).isEqualTo(99);
        assertThat(Files.readString(dir.resolve("with.json"))).isEqualTo(Files.readString(dir.resolve("without.json")));
        List<String> lines = with.out().lines().filter(l -> l.startsWith("prometheus-rw:")).toList();
        assertThat(lines).hasSize(1);
        assertThat(lines.get(0)).matches("prometheus-rw: 0 sample\\(s\\) sent to http://127\\.0\\.0\\.1:" + nobody
                + "/api/v1/write in \\d+ request\\(s\\); ([\\d,]+) of \\1 NOT sent \\(last error: cannot connect.*\\)");
        assertThat(with.out().replace(lines.get(0) + System.lineSeparator(), "")).isEqualTo(without.out());
        // the flush timeout (10 s) and a batch's retries (30 s) are not waited for
        assertThat(withSec - withoutSec).as("a receiver that is down is not waited for").isLessThan(8);
    }
}
