package io.rigscope.rig.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.localenv.net.LoopbackPorts;
import io.rigscope.localenv.testing.KafkaBroker;
import io.rigscope.rig.Main;
import io.rigscope.rig.options.ExitCodes;
import java.awt.image.BufferedImage;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Rectangle;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.WebDriverWait;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/**
 * The dashboard of {@code rigscope run --dashboard} opened in headless Chromium while the series runs: the
 * generator offers load open loop to a planted loopback server that holds every request for 800 ms once, a few
 * seconds in; the live analyzer decides that second a freeze-second, and the page, fed by the event stream,
 * marks it while the run is still going.
 */
@Tag("it")
class DashboardDuringALiveRunTest {

    @RegisterExtension
    static final KafkaBroker kafka = new KafkaBroker();

    static final Duration WAIT = Duration.ofSeconds(60);
    static final long FREEZE_AFTER_MS = 4_000;
    static final long FREEZE_MS = 800;

    @TempDir
    Path dir;

    /**
     * Answers 201 at once, except that the requests arriving in the 800 ms that start on the first whole second
     * at least 4 s after the first request are all answered at the end of those 800 ms: one frozen second.
     */
    private static DisposableServer plantedServer() {
        AtomicLong firstMs = new AtomicLong();
        return HttpServer.create().host("127.0.0.1").port(0)
                .route(r -> r.post("/v1/usage-events", (req, res) -> req.receive().then(Mono.defer(() -> {
                    long now = System.currentTimeMillis();
                    firstMs.compareAndSet(0, now);
                    long freezeStart = ((firstMs.get() + FREEZE_AFTER_MS) / 1000 + 1) * 1000;
                    long hold = now >= freezeStart && now < freezeStart + FREEZE_MS ? freezeStart + FREEZE_MS - now : 0;
                    return Mono.delay(Duration.ofMillis(hold)).then(res.status(201)
                            .header("Content-Type", "application/json").sendString(Mono.just("{\"written\":10}"))
                            .then());
                }))))
                .bindNow(Duration.ofSeconds(10));
    }

    private static void awaitListening(String url) throws Exception {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (true) {
            try {
                HttpResponse<Void> r = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5))
                        .build(), HttpResponse.BodyHandlers.discarding());
                if (r.statusCode() == 200) {
                    return;
                }
            } catch (java.io.IOException e) {
                // not listening yet
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the dashboard did not listen on " + url + " within " + WAIT);
            }
            Thread.sleep(200);
        }
    }

    @Test
    void thePageOfARunningSeriesDrawsItsSecondsAndMarksThePlantedFreezeWhileTheRunGoesOn() throws Exception {
        Browser browser = Browser.open();    // first: without Chromium the test is skipped before any load
        DisposableServer server = plantedServer();
        String series = "live-" + UUID.randomUUID();
        int port = LoopbackPorts.free();
        Path config = dir.resolve("series.yaml");
        Files.writeString(config, "target: {url: 'http://127.0.0.1:" + server.port() + "/v1/usage-events', "
                + "api_key: k}\n"
                + "sustained: {rate: 50, repeats: 1, duration: 20s, cooldown: 0s}\n"
                + "load: {probe_rate: 0}\n"
                // the disk view and canary measure the database's disk only where the file says it is
                + "pgdata: '" + dir + "'\n");
        CompletableFuture<Integer> run = CompletableFuture.supplyAsync(() -> Main.run("run", "--config",
                config.toString(), "--series", series, "--bootstrap", kafka.bootstrap(),
                "--dashboard=127.0.0.1:" + port));
        try (browser) {
            String page = "http://127.0.0.1:" + port + "/series/" + series;
            awaitListening("http://127.0.0.1:" + port + "/");
            browser.driver.get(page);
            browser.awaitPositive("latencyPoints", WAIT);
            browser.awaitPositive("freezeMarked", WAIT);
            new WebDriverWait(browser.driver, WAIT).until(d -> browser.data("panelsDrawn") >= 3);

            String verdict = browser.driver.findElement(By.id("rigscope")).getAttribute("data-verdict");
            boolean runningStill = !run.isDone();
            BufferedImage shot = browser.screenshot(Path.of("target/browser/dashboard-live.png"));

            assertThat(runningStill).as("the run was still going when the freeze was marked").isTrue();
            assertThat(verdict).isEqualTo("RUNNING");
            assertThat(browser.data("freezeMarked")).isPositive();
            assertThat(browser.driver.findElement(By.id("rs-vmstat")).findElements(By.tagName("canvas"))).isNotEmpty();
            // no database: the waits panel says which stream it lacks rather than staying blank
            assertThat(browser.driver.findElement(By.id("rs-waits")).getText()).contains("no data on rig.waits");
            WebElement latency = browser.driver.findElement(By.cssSelector("#rs-latency canvas"));
            Rectangle r = latency.getRect();
            assertThat(Browser.luminanceVariance(shot, r.getX(), r.getY(), r.getWidth(), r.getHeight()))
                    .as("pixel variance of the latency chart").isGreaterThan(200);
            assertThat(Browser.luminanceVariance(shot)).isGreaterThan(200);
            assertThat(Browser.redPixels(shot)).isGreaterThan(50);
        } finally {
            assertThat(run.get(180, TimeUnit.SECONDS)).isIn(ExitCodes.OK, ExitCodes.GATES_FAILED);
            server.disposeNow(Duration.ofSeconds(5));
        }
    }
}
