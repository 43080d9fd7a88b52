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

/**
 * {@code compare A B --report-html}: the provoked clean and wal-pool recordings overlaid in a headless Chromium,
 * offline: both sides' p99 seconds drawn, B's freeze-seconds counted, the telemetry panels drawn for both.
 */
@Tag("it")
class ComparisonPageInBrowserTest {

    static final Path PROVOKED = Path.of("../analyzer/src/test/resources/provoked");

    @TempDir
    Path dir;

    @Test
    void twoRecordingsAreOverlaidPerSecondWithTheComparisonsVerdict() throws Exception {
        Path html = dir.resolve("compare.html");
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        java.io.PrintStream saved = System.out;
        try {
            System.setOut(new java.io.PrintStream(out, true, java.nio.charset.StandardCharsets.UTF_8));
            assertThat(Main.run("compare", "--json", "--report-html", html.toString(),
                    PROVOKED.resolve("clean.jsonl.gz").toString(), PROVOKED.resolve("wal-pool.jsonl.gz").toString()))
                    .isEqualTo(ExitCodes.OK);
        } finally {
            System.setOut(saved);
        }
        // compare's own count of each side's judged freeze-seconds: the page must count the same
        com.fasterxml.jackson.databind.JsonNode json = new com.fasterxml.jackson.databind.ObjectMapper().readTree(
                out.toString(java.nio.charset.StandardCharsets.UTF_8));
        long freezeA = 0;
        long freezeB = 0;
        for (var r : json.at("/a/repeats")) {
            freezeA += r.get("freeze_seconds").asLong();
        }
        for (var r : json.at("/b/repeats")) {
            freezeB += r.get("freeze_seconds").asLong();
        }
        String page = Files.readString(html);
        assertThat(page).doesNotContain("src=\"http").doesNotContain("href=\"http").contains("RigscopeComparePage");

        try (Browser browser = Browser.open(1280, 2600)) {
            browser.driver.get(html.toUri().toString());
            browser.awaitPositive("latencyPointsA", Duration.ofSeconds(30));
            assertThat(browser.data("latencyPointsB")).isPositive();
            assertThat(browser.driver.findElement(By.id("rigscope")).getAttribute("data-verdict"))
                    .isEqualTo("not_comparable");
            // the wal-pool recording's judged repeat froze 8 seconds in wal_pool episodes and more besides; the
            // clean one (on a loaded host) a few: as compare counts them
            assertThat(browser.data("freezeB")).isEqualTo(freezeB).isGreaterThanOrEqualTo(8);
            assertThat(browser.data("freezeA")).isEqualTo(freezeA);
            assertThat(browser.data("panelsDrawn")).isGreaterThanOrEqualTo(5);
            for (String panel : new String[] {"vmstat", "iops", "wal", "waits"}) {
                assertThat(browser.driver.findElements(By.cssSelector("#rs-" + panel + " canvas"))).as(panel)
                        .isNotEmpty();
            }
            assertThat(browser.driver.findElement(By.id("rs-comparison")).getText())
                    .contains("verdict: not_comparable", "pg_settings.wal_segment_size: 16MB -> 256MB");
            BufferedImage shot = browser.screenshot(Path.of("target/browser/compare.png"));
            assertThat(Browser.distinctColours(shot)).isGreaterThan(50);
        }
    }
}
