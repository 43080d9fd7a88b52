package io.rigscope.importers.k6;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;

class RfcTimeTest {

    private static long us(RfcTime times, String text) {
        byte[] b = ("\"" + text + "\"").getBytes(StandardCharsets.UTF_8);
        int len = RfcTime.lengthAt(b, 1, b.length);
        return len == text.length() ? times.parseUs(b, 1, len) : RfcTime.BAD;
    }

    @Test
    void timesReadOneAfterAnotherAgreeWithJavaTimeAcrossMinutesDaysAndOffsets() {
        RfcTime times = new RfcTime();
        Random random = new Random(11);
        long t = Instant.parse("2024-02-28T23:58:00Z").getEpochSecond() * 1_000_000_000L;
        ZoneOffset[] zones = {ZoneOffset.UTC, ZoneOffset.ofHours(2), ZoneOffset.ofHoursMinutes(-5, -30)};
        for (int i = 0; i < 20_000; i++) {
            t += random.nextInt(40_000_000); // up to 40 ms: runs of one minute, then the next, over two days
            ZoneOffset zone = zones[i / 5_000 % zones.length];
            int digits = random.nextInt(10);
            String pattern = "yyyy-MM-dd'T'HH:mm:ss" + (digits == 0 ? "" : "." + "S".repeat(digits)) + "XXX";
            String text = DateTimeFormatter.ofPattern(pattern, Locale.ROOT).format(OffsetDateTime.ofInstant(
                    Instant.ofEpochSecond(t / 1_000_000_000L, t % 1_000_000_000L), zone));
            Instant expected = OffsetDateTime.parse(text).toInstant();

            assertThat(us(times, text)).as(text)
                    .isEqualTo(expected.getEpochSecond() * 1_000_000L + expected.getNano() / 1_000);
        }
    }

    @Test
    void aBadTimeAfterAGoodOneOfTheSameMinuteIsStillBad() {
        RfcTime times = new RfcTime();
        assertThat(us(times, "2024-03-05T12:01:00.5+02:00")).isNotEqualTo(RfcTime.BAD);
        assertThat(us(times, "2024-03-05T12:01:61+02:00")).isEqualTo(RfcTime.BAD);
        assertThat(us(times, "2024-03-05T12:01:0x+02:00")).isEqualTo(RfcTime.BAD);
        assertThat(us(times, "2024-03-05T12:01:00.5+02:0x")).isEqualTo(RfcTime.BAD);
        assertThat(us(times, "2024-03-05T12:01:00.5+24:00")).isEqualTo(RfcTime.BAD);
        assertThat(us(times, "2024-02-30T12:01:00Z")).isEqualTo(RfcTime.BAD);
        assertThat(us(times, "2024-03-05T12:01:00.Z")).isEqualTo(RfcTime.BAD);
        assertThat(us(times, "2024-03-05T12:01:00.1234567890Z")).isEqualTo(RfcTime.BAD);
        assertThat(us(times, "2024-03-05T12:01:00")).isEqualTo(RfcTime.BAD);
        assertThat(us(times, "2024-03-05T12:01:00.5+02:00")).isNotEqualTo(RfcTime.BAD);
    }
}
