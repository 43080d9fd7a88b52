package io.rigscope.rig.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.model.codec.WireCodec;
import io.rigscope.model.wire.Config;
import io.rigscope.model.wire.ErrorKind;
import io.rigscope.model.wire.Health;
import io.rigscope.model.wire.Ledger;
import io.rigscope.model.wire.Marker;
import io.rigscope.model.wire.Sample;
import io.rigscope.model.wire.SampleBatch;
import io.rigscope.model.wire.ScheduleStart;
import io.rigscope.rig.Main;
import io.rigscope.rig.options.ExitCodes;
import io.rigscope.wire.WireFileWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

/**
 * A repeat whose generator fell silent 10 s into a 30-s schedule (killed: no end marker), in the HTML report the
 * dashboard also renders, opened in real headless Chromium: its gate table says which generator, since when, what was
 * never offered and what may be missing.
 */
@Timeout(180)
@Tag("it")
class SilentGeneratorInBrowserTest {

    private static final long START_SEC = 1_796_000_000L; // 2026-11-30T00:53:20Z

    @TempDir
    Path dir;

    @Test
    void theReportSaysWhichGeneratorFellSilentSinceWhenAndWhatWasNeverOffered() throws Exception {
        Path wire = dir.resolve("silent.jsonl");
        try (WireFileWriter writer = new WireFileWriter(wire, new WireCodec())) {
            writer.write(new Marker("silent-page", 0, "rig", START_SEC * 1_000_000L - 100_000, null,
                    new Config(Map.of("reconciliation_required", false, "min_samples", 100))));
            writer.write(new Marker("silent-page", 1, "gen-1", START_SEC * 1_000_000L - 50_000, "sustained",
                    new ScheduleStart(null, START_SEC * 1_000_000L, 30_000L, null, null, null)
                            .body(Marker.Kind.REPEAT_START)));
            for (long sec = START_SEC; sec < START_SEC + 10; sec++) {
                List<Sample> samples = new ArrayList<>();
                for (int k = 0; k < 100; k++) {
                    long t0 = sec * 1_000_000L + k * 10_000L;
                    samples.add(new Sample("ingest", t0, t0 + 10, t0 + 2_000, 200, ErrorKind.NONE, 1, 1, 100));
                }
                writer.write(new SampleBatch("silent-page", 1, "gen-1", (sec + 1) * 1_000_000L - 1, samples));
                writer.write(new Ledger("silent-page", 1, "gen-1", (sec + 1) * 1_000_000L + 10_000, "ingest", sec, 100,
                        100, 0, 100, false));
                writer.write(new Health("silent-page", 1, "gen-1", (sec + 1) * 1_000_000L + 20_000, 0, 0, 0.1, 20, 1,
                        2));
            }
        }
        Path html = dir.resolve("silent.html");
        assertThat(Main.run("analyze", "--series", "silent-page", "--input", wire.toString(), "--quiet",
                "--report-html", html.toString())).isEqualTo(ExitCodes.GATES_FAILED);

        try (Browser browser = Browser.open(1280, 1600)) {
            browser.driver.get(html.toUri().toString());
            browser.awaitPositive("latencyPoints", Duration.ofSeconds(30));
            List<WebElement> silent = browser.driver.findElements(By.cssSelector(".rs-gate-table .rs-silent"));
            assertThat(silent).hasSize(1);
            // last heard in 00:53:30 (the health of second +9): silent since 00:53:31; ledger through 00:53:29
            assertThat(silent.get(0).getText()).isEqualTo("ended: generator gen-1 silent since 00:53:31: 20 of 30 s of "
                    + "the schedule never offered; ledger covered up to gen-1 00:53:29: samples completed after a "
                    + "generator's last ledger second may be missing");
            WebElement table = browser.driver.findElement(By.cssSelector(".rs-gate-table[data-rep='1']"));
            assertThat(table.getText()).contains("FAIL rep 1").contains("generator_silent");
        }
    }
}
