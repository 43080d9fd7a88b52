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
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.interactions.Actions;
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
        return open(1280, 1600);
    }

    /** A headless Chromium with a window of this size (CSS px); skips the calling test when Chromium is not installed. */
    static Browser open(int widthPx, int heightPx) {
        assumeTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
                "needs Debian's chromium and chromium-driver (/usr/bin/chromium, /usr/bin/chromedriver); "
                        + ".ci/run installs them");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=" + widthPx + "," + heightPx, "--force-device-scale-factor=1", "--lang=en-US");
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

    /**
     * Clicks (a real pointer click, no drag) the latency chart in the middle of the first episode's band, as drawn
     * by the page's script (its {@code page} object).
     */
    void clickFirstEpisodeBand() {
        Number x = (Number) driver.executeScript("var k = Object.keys(page.episodes)[0]; var b = page.episodes[k].body;"
                + " return page.chartsByName.latency.valToPos((b.start + b.end + 1) / 2, 'x');");
        WebElement over = driver.findElement(By.cssSelector("#rs-latency .u-over"));
        int fromCentre = (int) Math.round(x.doubleValue() - over.getRect().getWidth() / 2.0);
        new Actions(driver).moveToElement(over, fromCentre, 0).click().perform();
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

    /**
     * The variance of the luminance (0-255) of the pixels in a region of the image: 0 for a blank region, in the
     * hundreds or more where lines and text are drawn on a white background.
     */
    static double luminanceVariance(BufferedImage image, int x0, int y0, int width, int height) {
        int x1 = Math.min(image.getWidth(), x0 + width);
        int y1 = Math.min(image.getHeight(), y0 + height);
        double sum = 0;
        double sumSq = 0;
        long n = 0;
        for (int y = Math.max(0, y0); y < y1; y++) {
            for (int x = Math.max(0, x0); x < x1; x++) {
                int rgb = image.getRGB(x, y);
                double l = 0.2126 * ((rgb >> 16) & 0xff) + 0.7152 * ((rgb >> 8) & 0xff) + 0.0722 * (rgb & 0xff);
                sum += l;
                sumSq += l * l;
                n++;
            }
        }
        if (n == 0) {
            return 0;
        }
        double mean = sum / n;
        return sumSq / n - mean * mean;
    }

    /** {@link #luminanceVariance(BufferedImage, int, int, int, int)} of the whole image. */
    static double luminanceVariance(BufferedImage image) {
        return luminanceVariance(image, 0, 0, image.getWidth(), image.getHeight());
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
