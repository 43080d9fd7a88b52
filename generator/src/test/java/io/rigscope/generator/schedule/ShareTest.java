package io.rigscope.generator.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ShareTest {

    @Test
    void nSharesOfferTheWholeScheduleBetweenThemRequestByRequest() {
        ArrivalSchedule whole = ArrivalSchedule.constantRate(2_999.5);
        for (int n = 1; n <= 4; n++) {
            for (Duration d : List.of(Duration.ofMillis(1), Duration.ofMillis(999), Duration.ofSeconds(7),
                    Duration.ofNanos(1_234_567_891))) {
                List<Long> merged = new ArrayList<>();
                long count = 0;
                for (int k = 1; k <= n; k++) {
                    ArrivalSchedule part = new Share(k, n).of(whole);
                    long c = part.countWithin(d);
                    count += c;
                    for (long i = 0; i < c; i++) {
                        merged.add(part.offsetNanos(i));
                    }
                    assertThat(part.offsetNanos(c)).as("share %d/%d: first request past %s", k, n, d)
                            .isGreaterThanOrEqualTo(d.toNanos());
                }
                assertThat(count).as("%d shares within %s", n, d).isEqualTo(whole.countWithin(d));
                merged.sort(null);
                for (int i = 0; i < merged.size(); i++) {
                    assertThat(merged.get(i)).isEqualTo(whole.offsetNanos(i));
                }
            }
        }
    }

    @Test
    void aShareIsKOfNAndAnythingElseIsNamed() {
        assertThat(Share.parse(" 2/3 ")).isEqualTo(new Share(2, 3));
        assertThat(Share.parse("1/1").of(ArrivalSchedule.constantRate(10))).isNotNull();
        assertThatThrownBy(() -> Share.parse("3/2")).hasMessageContaining("share 3/2 is not one of 1/N to N/N");
        assertThatThrownBy(() -> Share.parse("0/2")).hasMessageContaining("share 0/2");
        assertThatThrownBy(() -> Share.parse("half")).hasMessageContaining("share 'half' is not K/N");
        assertThatThrownBy(() -> Share.parse("a/b")).hasMessageContaining("whole numbers");
    }
}
