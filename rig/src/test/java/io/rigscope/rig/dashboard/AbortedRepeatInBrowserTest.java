package io.rigscope.rig.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.analyzer.synthetic.SyntheticSeries;
import io.rigscope.analyzer.synthetic.SyntheticSeries.Plan;
import io.rigscope.analyzer.decision.Abort;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.model.wire.Marker;
import io.rigscope.rig.Main;
import io.rigscope.rig.options.ExitCodes;
import io.rigscope.wire.WireFileWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

/**
 * A repeat that {@code abortOnFail} stopped, in the HTML report opened in real headless Chromium: its gate table
 * says it was aborted, by which threshold, when and at what figure, beside a repeat that ran its schedule.
 */
@Tag("it")
class AbortedRepeatInBrowserTest {

    @TempDir
    Path dir;

    @Test
    void theReportSaysWhichRepeatWasAbortedByWhatAndWhen() throws Exception {
        Abort abort = new Abort("http_req_duration: max<300", 612.5, 300, 13_000, 5_000, 30_000, 13);
        Plan plan = Plan.of("aborted-page", 2, 30, 200)
                .withConfig(Map.of("thresholds", Map.of("http_req_duration",
                        List.of(Map.of("threshold", "max<300", "abortOnFail", true, "delayAbortEval", "5s")))));
        Path wire = dir.resolve("aborted.jsonl");
        try (WireFileWriter writer = new WireFileWriter(wire, new WireCodec())) {
            SyntheticSeries.emit(plan, r -> writer.write(r instanceof Marker m && m.kind() == Marker.Kind.REPEAT_END
                    && m.rep() == 1 ? new Marker(m.run(), m.rep(), m.src(), m.ts(), m.phase(),
                    io.rigscope.model.wire.RepeatEnd.ofStop(abort.facts())) : r));
        }
        Path html = dir.resolve("aborted.html");
        assertThat(Main.run("analyze", "--series", "aborted-page", "--input", wire.toString(), "--quiet",
                "--report-html", html.toString())).isEqualTo(ExitCodes.GATES_FAILED);

        try (Browser browser = Browser.open(1280, 1600)) {
            browser.driver.get(html.toUri().toString());
            browser.awaitPositive("latencyPoints", Duration.ofSeconds(30));
            List<WebElement> aborted = browser.driver.findElements(By.cssSelector(".rs-gate-table .rs-aborted"));
            assertThat(aborted).hasSize(1);
            assertThat(aborted.get(0).getText()).isEqualTo("aborted 13 s into its 30 s schedule: http_req_duration: "
                    + "max<300 measured 612.5 over 13 closed second(s) (abortOnFail, delayAbortEval 5 s)");
            WebElement first = browser.driver.findElement(By.cssSelector(".rs-gate-table[data-rep='1']"));
            WebElement second = browser.driver.findElement(By.cssSelector(".rs-gate-table[data-rep='2']"));
            assertThat(first.getText()).contains("FAIL rep 1").contains("aborted 13 s");
            assertThat(second.getText()).contains("PASS rep 2").doesNotContain("aborted");
            assertThat(browser.driver.findElement(By.tagName("h1")).getText()).contains("FAIL 1/2");
        }
    }
}
