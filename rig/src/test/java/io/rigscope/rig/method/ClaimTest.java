package io.rigscope.rig.method;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.model.wire.ErrorKind;
import io.rigscope.model.wire.Sample;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClaimTest {

    private static Sample sample(int status, ErrorKind err, int batch, long qty) {
        return new Sample("ingest", 1_000, 1_100, 5_000, status, err, batch, qty, 2_000);
    }

    @Test
    void onlyAnswered2xxSamplesClaimTheirEventsAndQuantity() {
        ErrorKind failure = java.util.Arrays.stream(ErrorKind.values()).filter(k -> k != ErrorKind.NONE).findFirst().orElseThrow();
        Reconciliation.Claim total = List.of(sample(201, ErrorKind.NONE, 50, 300), sample(201, ErrorKind.NONE, 50, 200),
                        sample(503, failure, 50, 999), sample(0, failure, 50, 999))
                .stream().map(Reconciliation.Claim::of).reduce(Reconciliation.Claim.NONE, Reconciliation.Claim::plus);
        assertThat(total).isEqualTo(new Reconciliation.Claim(100, 500));
    }

    @Test
    void theWindowAroundARepeatIsWidenedByTheMarginOnBothSides() {
        Instant a = Instant.parse("2026-11-30T02:00:00Z");
        Instant b = Instant.parse("2026-11-30T02:10:00Z");
        var w = Reconciliation.Window.around(a, b, Duration.ofSeconds(5));
        assertThat(w.start()).isEqualTo(Instant.parse("2026-11-30T01:59:55Z"));
        assertThat(w.end()).isEqualTo(Instant.parse("2026-11-30T02:10:05Z"));
    }
}
