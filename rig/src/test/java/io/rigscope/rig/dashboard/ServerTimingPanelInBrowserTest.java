package io.rigscope.rig.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rigscope.localenv.testing.KafkaBroker;
import io.rigscope.model.codec.Decoded;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.rig.Main;
import io.rigscope.rig.options.ExitCodes;
import io.rigscope.wire.WireFileReader;
import io.rigscope.wire.WirePublisher;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.math.BigDecimal;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The Server-Timing panel (where the service says each second's time went, beside the measured latency) in real
 * headless Chromium, on the HTML report and on the dashboard, from a real series: {@code demo --quick} of
 * 2026-12-02 07:12 on this project's 2-core VM at load average 17 (analyzer/src/test/resources/recorded/README.md),
 * whose SUT was starved of CPU and whose requests waited seconds for a pooled connection. The panel's figures are
 * held to the wire file's own samples: the slowest request that carried Server-Timing, its measured service time
 * and every metric the SUT named for it.
 */
@Tag("it")
class ServerTimingPanelInBrowserTest {

    static final Path RECORDED = Path.of("../analyzer/src/test/resources/recorded/demo-quick-server-timing.jsonl.gz");
    static final String SERIES = "demo-20261202-071224";
    static final Duration WAIT = Duration.ofSeconds(60);

    @RegisterExtension
    static final KafkaBroker kafka = new KafkaBroker();

    /** The slowest timed request of the load scenario inside a repeat, and the seconds that had one. */
    record Slowest(long t2Us, long serviceUs, Map<String, Long> timingUs, Set<Long> timedSeconds) {
    }

    @BeforeAll
    static void theRecordedSeriesIsOnTheBrokerAndJudged() {
        WireCodec codec = new WireCodec();
        try (WirePublisher publisher = new WirePublisher(kafka.bootstrap(), codec, WirePublisher.Options.defaults())) {
            WireFileReader.read(RECORDED, codec).toIterable().forEach(d -> {
                if (d instanceof Decoded.Ok ok) {
                    publisher.publish(ok.record());
                }
            });
            publisher.flush();
        }
        assertThat(Main.run("analyze", "--bootstrap", kafka.bootstrap(), "--series", SERIES, "--replay", "--publish",
                "--quiet")).isIn(ExitCodes.OK, ExitCodes.GATES_FAILED);
    }

    @Test
    void theReportsServerTimingPanelShowsTheSlowestTimedRequestAsTheServiceToldIt(@TempDir Path dir) throws Exception {
        Slowest expected = slowestTimed();
        Path html = dir.resolve("demo.html");
        assertThat(Main.run("analyze", "--series", SERIES, "--input", RECORDED.toString(), "--quiet",
                "--report-html", html.toString())).isIn(ExitCodes.OK, ExitCodes.GATES_FAILED);

        try (Browser browser = Browser.open(1280, 2400)) {
            browser.driver.get(html.toUri().toString());
            browser.awaitPositive("serverTimingPoints", WAIT);
            thePanelShows(browser, expected);
        }
    }

    @Test
    void theDashboardsServerTimingPanelShowsTheSameFigures() throws Exception {
        Slowest expected = slowestTimed();
        try (Dashboard d = Dashboard.start(kafka.bootstrap(), new WireCodec(),
                new Dashboard.Options(new InetSocketAddress("127.0.0.1", 0), null));
             Browser browser = Browser.open(1280, 2400)) {
            browser.driver.get(d.url(SERIES));
            browser.awaitPositive("serverTimingPoints", WAIT);
            // the stream delivers the series' decisions in order: wait for its verdict, then every second is drawn
            new WebDriverWait(browser.driver, WAIT).until(x ->
                    "FAIL".equals(browser.driver.findElement(By.id("rigscope")).getAttribute("data-verdict")));
            new WebDriverWait(browser.driver, WAIT).until(x -> browser.driver.findElement(
                    By.id("rs-server-timing-slowest")).getText().contains(ms(expected.serviceUs()) + " ms;"));
            thePanelShows(browser, expected);
        }
    }

    private static void thePanelShows(Browser browser, Slowest expected) throws Exception {
        assertThat(browser.driver.findElements(By.cssSelector("#rs-server-timing canvas"))).isNotEmpty();
        assertThat(browser.data("serverTimingPoints")).isPositive()
                .isLessThanOrEqualTo(expected.timedSeconds().size());
        String legend = browser.driver.findElement(By.cssSelector("#rs-server-timing .u-legend")).getText();
        assertThat(legend).contains("measured ms").contains("pool ms").contains("db ms").contains("app ms");
        String note = browser.driver.findElement(By.id("rs-server-timing-slowest")).getText();
        StringBuilder said = new StringBuilder();
        expected.timingUs().forEach((name, us) -> said.append(said.length() == 0 ? "" : ", ").append(name).append(' ')
                .append(ms(us)).append(" ms"));
        assertThat(note).as("the slowest timed request of the wire file, as the SUT's header said it")
                .contains("measured " + ms(expected.serviceUs()) + " ms; the service said " + said);
        assertThat(browser.driver.findElement(By.id("rs-server-timing-slowest")).getAttribute("data-sec"))
                .isEqualTo(String.valueOf(Math.floorDiv(expected.t2Us(), 1_000_000L)));
        assertThat(Browser.distinctColours(browser.screenshot(Path.of("target/browser/server-timing.png"))))
                .isGreaterThan(50);
    }

    /** Milliseconds as the page prints a JSON number of µs / 1000 (no trailing zeros). */
    private static String ms(long us) {
        return BigDecimal.valueOf(us).movePointLeft(3).stripTrailingZeros().toPlainString();
    }

    /** From the wire file itself: the ingest scenario's slowest sample with Server-Timing inside a repeat. */
    private static Slowest slowestTimed() throws Exception {
        ObjectMapper json = new ObjectMapper();
        Slowest best = null;
        Set<Long> seconds = new HashSet<>();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(
                new GZIPInputStream(Files.newInputStream(RECORDED)), StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                JsonNode l = json.readTree(line);
                if (!"rig.samples".equals(l.path("topic").asText()) || l.path("value").path("rep").asInt() < 1) {
                    continue;
                }
                for (JsonNode s : l.path("value").path("samples")) {
                    JsonNode st = s.path("server_timing_us");
                    if (!"ingest".equals(s.path("scenario").asText()) || st.isMissingNode() || st.isEmpty()) {
                        continue;
                    }
                    long t2 = s.path("t2").asLong();
                    seconds.add(Math.floorDiv(t2, 1_000_000L));
                    long serviceUs = t2 - s.path("t1").asLong();
                    if (best == null || serviceUs > best.serviceUs()) {
                        Map<String, Long> timing = new java.util.LinkedHashMap<>();
                        for (Iterator<Map.Entry<String, JsonNode>> it = st.fields(); it.hasNext(); ) {
                            Map.Entry<String, JsonNode> e = it.next();
                            timing.put(e.getKey(), e.getValue().asLong());
                        }
                        best = new Slowest(t2, serviceUs, timing, Set.of());
                    }
                }
            }
        }
        assertThat(best).as("a timed request in " + RECORDED).isNotNull();
        assertThat(best.timingUs()).containsKeys("pool", "db", "app");
        return new Slowest(best.t2Us(), best.serviceUs(), best.timingUs(), Set.copyOf(seconds));
    }
}
