package io.rigscope.rig.dashboard;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import javax.imageio.ImageIO;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Real headless Chromium (Debian's {@code chromium} and {@code chromium-driver}) driven by Selenium, for the
 * browser tests. The test is skipped (an assumption, said why) when either binary is absent; {@code .ci/run}
 * installs them. Selenium Manager is never asked: both paths are given.
 */
final class Browser implements AutoCloseable {

    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

    final ChromeDriver driver;

    private Browser(ChromeDriver driver) {
        this.driver = driver;
    }

    /** A headless Chromium with a 1280x1600 window; skips the calling test when Chromium is not installed. */
    static Browser open() {
        assumeTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
                "needs Debian's chromium and chromium-driver (/usr/bin/chromium, /usr/bin/chromedriver); "
                        + ".ci/run installs them");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1280,1600", "--force-device-scale-factor=1", "--lang=en-US");
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort().build();
        return new Browser(new ChromeDriver(service, options));
    }

    /** Waits (at most {@code timeout}) until the page's root element carries a positive number in {@code data-KEY}. */
    void awaitPositive(String key, Duration timeout) {
        new WebDriverWait(driver, timeout).until(d -> {
            Object v = driver.executeScript(
                    "var r = document.getElementById('rigscope'); return r ? r.dataset['" + key + "'] : null;");
            return v != null && Integer.parseInt(v.toString()) > 0;
        });
    }

    /** A number the page's root element carries in {@code data-KEY}. */
    long data(String key) {
        Object v = driver.executeScript("return document.getElementById('rigscope').dataset['" + key + "'];");
        return v == null ? -1 : Long.parseLong(v.toString());
    }

    /** Saves a screenshot of the page as PNG and returns it decoded. */
    BufferedImage screenshot(Path png) {
        byte[] bytes = driver.getScreenshotAs(OutputType.BYTES);
        try {
            Path parent = png.toAbsolutePath().getParent();
            Files.createDirectories(parent);
            Files.write(png, bytes);
            return ImageIO.read(new ByteArrayInputStream(bytes));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** How many distinct colours the image holds (a blank page holds one or two). */
    static int distinctColours(BufferedImage image) {
        Set<Integer> colours = new HashSet<>();
        for (int y = 0; y < image.getHeight(); y += 2) {
            for (int x = 0; x < image.getWidth(); x += 2) {
                colours.add(image.getRGB(x, y));
            }
        }
        return colours.size();
    }

    /** How many pixels of the image are strongly red (freeze lines, episode borders). */
    static long redPixels(BufferedImage image) {
        long n = 0;
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                int rgb = image.getRGB(x, y);
                int r = (rgb >> 16) & 0xff;
                int g = (rgb >> 8) & 0xff;
                int b = rgb & 0xff;
                if (r > 200 && g < 60 && b < 60) {
                    n++;
                }
            }
        }
        return n;
    }

    @Override
    public void close() {
        driver.quit();
    }
}
