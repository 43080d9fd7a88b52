package io.rigscope.importers.k6.follow;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Hands k6 lines over at k6's own pace, sped up: a line is due when the run's clock (the latest point time so far)
 * reached its time, divided by the speed-up. Into a file (as k6 appends to its --out json file, some lines in two
 * writes so a last line waits for its newline) or to any consumer (a Kafka producer).
 */
final class PacedK6Writer {

    private static final Pattern TIME = Pattern.compile("\"time\":\"([^\"]+)\"");

    private PacedK6Writer() {
    }

    /** Appends the lines to {@code file} (created on the first line) at the run's pace divided by {@code speedUp}. */
    static void toFile(List<String> lines, Path file, double speedUp) throws IOException, InterruptedException {
        try (OutputStream out = Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND)) {
            int[] n = {0};
            paced(lines, speedUp, line -> {
                try {
                    byte[] bytes = (line + "\n").getBytes(StandardCharsets.UTF_8);
                    if (n[0]++ % 50 == 7) {
                        // k6's writer flushes a buffer, not lines: a line can be half on disk for a moment
                        out.write(bytes, 0, bytes.length / 2);
                        out.flush();
                        Thread.sleep(30);
                        out.write(bytes, bytes.length / 2, bytes.length - bytes.length / 2);
                    } else {
                        out.write(bytes);
                    }
                    out.flush();
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            });
        }
    }

    /** Hands each line to {@code sink} when due. */
    static void paced(List<String> lines, double speedUp, Consumer<String> sink) throws InterruptedException {
        long startNs = System.nanoTime();
        long firstUs = Long.MIN_VALUE;
        long clockUs = Long.MIN_VALUE;
        for (String line : lines) {
            Matcher m = TIME.matcher(line);
            if (m.find()) {
                OffsetDateTime t = OffsetDateTime.parse(m.group(1));
                long us = t.toEpochSecond() * 1_000_000L + t.getNano() / 1_000;
                if (firstUs == Long.MIN_VALUE) {
                    firstUs = us;
                }
                clockUs = Math.max(clockUs, us);
                long dueNs = startNs + (long) ((clockUs - firstUs) * 1000 / speedUp);
                long waitNs = dueNs - System.nanoTime();
                if (waitNs > 1_000_000) {
                    Thread.sleep(waitNs / 1_000_000);
                }
            }
            sink.accept(line);
        }
    }
}
