package io.rigscope.rig.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rigscope.localenv.testing.KafkaBroker;
import io.rigscope.model.codec.Decoded;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.rig.Main;
import io.rigscope.rig.options.ExitCodes;
import io.rigscope.wire.WireFileReader;
import io.rigscope.wire.WirePublisher;
import java.awt.image.BufferedImage;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;

/**
 * The dashboard on a real broker holding a real series: the recorded hot-row demo (its telemetry and load, as
 * recorded), judged by {@code analyze --replay --publish} so that its decisions are on {@code rig.verdicts}.
 */
@Tag("it")
class DashboardTest {

    @RegisterExtension
    static final KafkaBroker kafka = new KafkaBroker();

    static final String SERIES = HtmlReportInBrowserTest.SERIES;
    static final Duration WAIT = Duration.ofSeconds(60);
    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    @BeforeAll
    static void theRecordedSeriesIsOnTheBrokerAndJudged() {
        WireCodec codec = new WireCodec();
        try (WirePublisher publisher = new WirePublisher(kafka.bootstrap(), codec, WirePublisher.Options.defaults())) {
            WireFileReader.read(HtmlReportInBrowserTest.RECORDED, codec).toIterable().forEach(d -> {
                if (d instanceof Decoded.Ok ok) {
                    publisher.publish(ok.record());
                }
            });
            publisher.flush();
        }
        assertThat(Main.run("analyze", "--bootstrap", kafka.bootstrap(), "--series", SERIES, "--replay", "--publish",
                "--quiet")).isEqualTo(ExitCodes.OK);
    }

    private static Dashboard start(String token) {
        return Dashboard.start(kafka.bootstrap(), new WireCodec(),
                new Dashboard.Options(new InetSocketAddress("127.0.0.1", 0), token));
    }

    private static HttpResponse<String> get(String url, String bearer) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(20));
        if (bearer != null) {
            b.header("Authorization", "Bearer " + bearer);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** /metrics once the index has read the series' SERIES verdict. */
    private static PrometheusTextParser.Exposition metricsOnceJudged(Dashboard d, String token) throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (true) {
            HttpResponse<String> r = get(d.url() + "metrics", token);
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.headers().firstValue("content-type")).hasValue("text/plain; version=0.0.4; charset=utf-8");
            PrometheusTextParser.Exposition e = PrometheusTextParser.parse(r.body());
            if (e.named("rigscope_series_pass").stream().anyMatch(s -> SERIES.equals(s.labels().get("series")))
                    || System.nanoTime() > deadline) {
                return e;
            }
            Thread.sleep(200);
        }
    }

    @Test
    void metricsAreStrictPrometheusTextWithTheAnalyzersFiguresOfTheSeries() throws Exception {
        try (Dashboard d = start(null)) {
            PrometheusTextParser.Exposition e = metricsOnceJudged(d, null);

            assertThat(e.named("rigscope_series_pass")).anySatisfy(s -> {
                assertThat(s.labels()).containsEntry("series", SERIES);
                assertThat(s.value()).isEqualTo(1.0);
            });
            assertThat(e.named("rigscope_series_passed_repeats")).anySatisfy(s -> {
                assertThat(s.labels()).containsEntry("series", SERIES);
                assertThat(s.value()).isEqualTo(1.0);
            });
            assertThat(e.named("rigscope_freeze_seconds_total")).anySatisfy(s -> {
                assertThat(s.labels()).containsEntry("series", SERIES).containsEntry("scenario", "ingest");
                assertThat(s.value()).isEqualTo(2.0);
            });
            assertThat(e.named("rigscope_episodes_total")).anySatisfy(s -> {
                assertThat(s.labels()).containsEntry("series", SERIES).containsEntry("cause", "lock_contention")
                        .containsEntry("confidence", "attributed");
                assertThat(s.value()).isEqualTo(1.0);
            });
            assertThat(e.named("rigscope_gate_pass")).anySatisfy(s -> {
                assertThat(s.labels()).containsEntry("series", SERIES).containsEntry("rep", "3")
                        .containsEntry("gate", "http_req_duration: p(99)<500");
                assertThat(s.value()).isEqualTo(1.0);
            });
            assertThat(e.named("rigscope_second_service_p99_seconds")).anySatisfy(s ->
                    assertThat(s.labels()).containsEntry("series", SERIES).containsEntry("scenario", "ingest"));
            assertThat(e.named("rigscope_second_offered_requests")).isNotEmpty();
            assertThat(e.named("rigscope_second_dropped_requests")).isNotEmpty();
            assertThat(e.types()).containsEntry("rigscope_freeze_seconds_total", "counter")
                    .containsEntry("rigscope_second_service_p99_seconds", "gauge");
        }
    }

    @Test
    void theParserRejectsWhatTheFormatForbids() {
        assertThatThrownBy(() -> PrometheusTextParser.parse("# TYPE a gauge\na{x=\"1\"} 1")).hasMessageContaining("line feed");
        assertThatThrownBy(() -> PrometheusTextParser.parse("a 1\n")).hasMessageContaining("no TYPE");
        assertThatThrownBy(() -> PrometheusTextParser.parse("# TYPE a gauge\na{x=1} 1\n")).hasMessageContaining("bad label");
        assertThatThrownBy(() -> PrometheusTextParser.parse("# TYPE a gauge\na 1,5\n")).hasMessageContaining("not a float");
        assertThatThrownBy(() -> PrometheusTextParser.parse("# TYPE a gauge\n# TYPE b gauge\na 1\nb 1\na 2\n"))
                .hasMessageContaining("split");
    }

    @Test
    void withATokenEveryRequestWithoutItIsRefused() throws Exception {
        try (Dashboard d = start("s3cret")) {
            assertThat(get(d.url(), null).statusCode()).isEqualTo(401);
            assertThat(get(d.url() + "metrics", null).statusCode()).isEqualTo(401);
            assertThat(get(d.url(SERIES) + "/events", null).statusCode()).isEqualTo(401);
            assertThat(get(d.url() + "metrics?token=wrong", null).statusCode()).isEqualTo(401);
            assertThat(get(d.url() + "metrics", "s3cret").statusCode()).isEqualTo(200);
            // the index lists what it has read so far: other classes' series share this broker
            long deadline = System.nanoTime() + WAIT.toNanos();
            HttpResponse<String> index = get(d.url() + "?token=s3cret", null);
            while (!index.body().contains("series/" + SERIES + "?token=s3cret") && System.nanoTime() < deadline) {
                Thread.sleep(200);
                index = get(d.url() + "?token=s3cret", null);
            }
            assertThat(index.statusCode()).isEqualTo(200);
            assertThat(index.body()).contains("series/" + SERIES + "?token=s3cret");
        }
    }

    @Test
    void itListensOnLoopbackUnlessToldOtherwise() {
        assertThat(Dashboard.Options.parseListen(":8099")).satisfies(a -> {
            assertThat(a.getHostString()).isEqualTo("127.0.0.1");
            assertThat(a.getPort()).isEqualTo(8099);
        });
        assertThat(Dashboard.Options.parseListen("8099").getHostString()).isEqualTo("127.0.0.1");
        assertThat(Dashboard.Options.parseListen("0.0.0.0:8099").getHostString()).isEqualTo("0.0.0.0");
        assertThatThrownBy(() -> Dashboard.Options.parseListen("host:port")).hasMessageContaining("not a number");
        try (Dashboard d = start(null)) {
            assertThat(d.address().getAddress().isLoopbackAddress()).isTrue();
        }
    }

    @Test
    void theSeriesPageReplaysTheFinishedSeriesAndMarksItsFreezeSecondsInChromium() throws Exception {
        try (Dashboard d = start("t0ken"); Browser browser = Browser.open(1280, 2400)) {
            browser.driver.get(d.url() + "?token=t0ken");
            assertThat(browser.driver.findElement(By.tagName("body")).getText()).contains(SERIES);

            browser.driver.get(d.url(SERIES) + "?token=t0ken");
            browser.awaitPositive("latencyPoints", WAIT);
            browser.awaitPositive("freezeMarked", WAIT);
            browser.awaitPositive("episodesMarked", WAIT);
            new org.openqa.selenium.support.ui.WebDriverWait(browser.driver, WAIT).until(x ->
                    "PASS".equals(browser.driver.findElement(By.id("rigscope")).getAttribute("data-verdict")));

            assertThat(browser.data("freezeMarked")).isEqualTo(2);
            assertThat(browser.driver.findElement(By.id("rs-episodes")).getText())
                    .contains("lock_contention (attributed)");
            // every telemetry stream of the recording arrives on the event stream and has its panel
            new org.openqa.selenium.support.ui.WebDriverWait(browser.driver, WAIT).until(x ->
                    browser.data("panelsDrawn") == 7);
            for (String panel : new String[] {"vmstat", "iops", "disk", "wal", "waits", "canary", "health"}) {
                assertThat(browser.driver.findElements(By.cssSelector("#rs-" + panel + " canvas"))).as(panel).isNotEmpty();
            }
            browser.clickFirstEpisodeBand();
            new org.openqa.selenium.support.ui.WebDriverWait(browser.driver, WAIT).until(x ->
                    browser.driver.findElement(By.id("rs-episode-detail")).getText().contains("Lock:transactionid"));
            BufferedImage shot = browser.screenshot(Path.of("target/browser/dashboard.png"));
            assertThat(Browser.distinctColours(shot)).isGreaterThan(50);
            assertThat(Browser.redPixels(shot)).isGreaterThan(100);
        }
    }
}
