package io.rigscope.rig.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.rig.Main;
import io.rigscope.rig.cli.ExitCodes;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;

/**
 * {@code analyze --input FILE --report-html R}: the report of a recorded series, opened from disk in real headless
 * Chromium. The recorded hot-row demo (analyzer/src/test/resources/recorded) replays to one lock_contention
 * episode of two freeze-seconds; the page must draw its seconds and mark both.
 */
class HtmlReportInBrowserTest {

    static final Path RECORDED = Path.of("../analyzer/src/test/resources/recorded/hot-row.jsonl.gz");
    static final String SERIES = "demo-20261130-184410";

    @TempDir
    Path dir;

    @Test
    void theRecordedHotRowReportDrawsItsSecondsAndMarksTheLockContentionEpisodeOffline() throws Exception {
        Path html = dir.resolve("hot-row.html");
        assertThat(Main.run("analyze", "--series", SERIES, "--input", RECORDED.toString(), "--quiet",
                "--report-html", html.toString())).isEqualTo(ExitCodes.OK);
        assertThat(Files.readString(html)).doesNotContain("src=\"http").doesNotContain("href=\"http");

        try (Browser browser = Browser.open()) {
            browser.driver.get(html.toUri().toString());
            browser.awaitPositive("latencyPoints", Duration.ofSeconds(30));
            browser.awaitPositive("freezeMarked", Duration.ofSeconds(30));

            assertThat(browser.data("freezeMarked")).isEqualTo(2);
            assertThat(browser.data("episodesMarked")).isEqualTo(1);
            assertThat(browser.driver.findElement(By.id("rigscope")).getAttribute("data-verdict")).isEqualTo("PASS");
            assertThat(browser.driver.findElement(By.cssSelector(".rs-episode")).getAttribute("data-cause"))
                    .isEqualTo("lock_contention");
            assertThat(browser.driver.findElement(By.id("rs-episodes")).getText())
                    .contains("lock_contention (attributed)").contains("Lock:transactionid");
            assertThat(browser.driver.findElements(By.cssSelector(".rs-gate-table"))).hasSize(3);
            assertThat(browser.driver.findElement(By.tagName("h1")).getText()).contains("PASS 1/1");

            BufferedImage shot = browser.screenshot(Path.of("target/browser/report.png"));
            assertThat(Browser.distinctColours(shot)).isGreaterThan(50);
            assertThat(Browser.redPixels(shot)).isGreaterThan(100);
        }
    }
}
