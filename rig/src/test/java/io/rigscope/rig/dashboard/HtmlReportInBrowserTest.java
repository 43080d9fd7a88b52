package io.rigscope.rig.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.rig.Main;
import io.rigscope.rig.options.ExitCodes;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Rectangle;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * {@code analyze --input FILE --report-html R}: the report of a recorded series, opened from disk in real headless
 * Chromium. The recorded hot-row demo (analyzer/src/test/resources/recorded) replays to one lock_contention
 * episode of two freeze-seconds; the page must draw its seconds and mark both.
 */
@Tag("it")
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

        try (Browser browser = Browser.open(1280, 2400)) {
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

            // the telemetry panels on the shared axis: every stream the recording has; none holds a vacuum
            assertThat(browser.data("panelsDrawn")).isEqualTo(7);
            for (String panel : new String[] {"vmstat", "iops", "disk", "wal", "waits", "canary", "health"}) {
                assertThat(browser.driver.findElements(By.cssSelector("#rs-" + panel + " canvas"))).as(panel).isNotEmpty();
            }
            assertThat(browser.driver.findElement(By.id("rs-vacuum")).getText())
                    .contains("no vacuum in progress in any rig.db reading");

            browser.clickFirstEpisodeBand();
            new WebDriverWait(browser.driver, Duration.ofSeconds(10)).until(d ->
                    d.findElement(By.id("rs-episode-detail")).getText().contains("Lock:transactionid"));
            assertThat(browser.driver.findElement(By.id("rs-episode-detail")).getText())
                    .contains("lock_contention (attributed)").contains("rig.waits");
            assertThat(browser.driver.findElements(By.cssSelector("#rs-episodes .rs-episode.rs-selected"))).hasSize(1);

            BufferedImage shot = browser.screenshot(Path.of("target/browser/report.png"));
            assertThat(Browser.distinctColours(shot)).isGreaterThan(50);
            assertThat(Browser.redPixels(shot)).isGreaterThan(100);
            Rectangle chart = browser.driver.findElement(By.cssSelector("#rs-latency canvas")).getRect();
            assertThat(Browser.luminanceVariance(shot, chart.getX(), chart.getY(), chart.getWidth(), chart.getHeight()))
                    .as("pixel variance of the latency chart").isGreaterThan(200);
        }
    }
}
