package io.rigscope.collectors;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.model.topic.Topic;
import io.rigscope.model.wire.Gap;
import io.rigscope.model.wire.Marker;
import io.rigscope.model.wire.Vmstat;
import io.rigscope.model.wire.WireRecord;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;
import reactor.test.scheduler.VirtualTimeScheduler;

class ResilientTest {

    private final CollectorContext ctx = new CollectorContext("s1", () -> 2, "h",
            Clock.fixed(Instant.parse("2026-11-30T00:00:00Z"), ZoneOffset.UTC));

    private Vmstat vmstat(long tsUs) {
        return new Vmstat("s1", 2, "vmstat@h", tsUs, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 100, 0, 0, null);
    }

    @Test
    void aSourceThatFailsTwiceThenRecoversYieldsGapMarkersThatTileTheLostTimeAndKeepsGoing() {
        AtomicInteger attempts = new AtomicInteger();
        long t0 = ctx.nowUs();
        List<WireRecord> out = Resilient.forever(ctx, "vmstat@h", Topic.VMSTAT, () -> switch (attempts.incrementAndGet()) {
            case 1 -> Flux.just(vmstat(t0 - 2_000_000)).concatWith(Flux.error(new IllegalStateException("vmstat died")));
            case 2 -> Flux.error(new java.io.IOException("cannot start vmstat"));
            default -> Flux.just(vmstat(t0 + 5_000_000), vmstat(t0 + 6_000_000));
        }, new Backoff(Duration.ofMillis(1), Duration.ofMillis(4)), Schedulers.parallel())
                .take(6).collectList().block(Duration.ofSeconds(10));

        assertThat(out).hasSize(6);
        assertThat(out.get(0)).isInstanceOf(Vmstat.class);
        Marker first = (Marker) out.get(1);
        Marker second = (Marker) out.get(2);
        Marker closing = (Marker) out.get(3);
        assertThat(first.kind()).isEqualTo(Marker.Kind.GAP);
        assertThat(first.rep()).isEqualTo(2);
        assertThat(gap(first)).isEqualTo(new Gap(t0, t0, "vmstat died", "vmstat@h", Topic.VMSTAT.topicName(), 1));
        assertThat(gap(second).reason()).isEqualTo("cannot start vmstat");
        assertThat(gap(second).attempt()).isEqualTo(2);
        assertThat(gap(second).startUs()).isEqualTo(t0);
        assertThat(gap(closing).attempt()).isZero();
        assertThat(gap(closing).startUs()).isEqualTo(gap(second).endUs());
        assertThat(gap(closing).reason()).startsWith("recovered after 2 failed attempt(s)");
        assertThat(out.subList(4, 6)).allSatisfy(r -> assertThat(r).isInstanceOf(Vmstat.class));
    }

    @Test
    void aSourceThatEndsIsRestartedAfterAGapMarkerAndItsRecoveryIsMarkedToo() {
        AtomicInteger attempts = new AtomicInteger();
        List<WireRecord> out = Resilient.forever(ctx, "x@h", Topic.VMSTAT, () -> {
            attempts.incrementAndGet();
            return Flux.just(vmstat(ctx.nowUs()));
        }, new Backoff(Duration.ofMillis(1), Duration.ofMillis(1)), Schedulers.parallel())
                .take(5).collectList().block(Duration.ofSeconds(10));

        assertThat(out).extracting(r -> r.getClass().getSimpleName())
                .containsExactly("Vmstat", "Marker", "Marker", "Vmstat", "Marker");
        assertThat(gap(out.get(1)).reason()).isEqualTo("x@h: source ended");
        assertThat(gap(out.get(2)).attempt()).isZero();
        assertThat(attempts.get()).isEqualTo(2);
    }

    @Test
    void retriesWaitFirstThenDoubleUpToTheMaximumAndStartOverOnceARecordArrives() {
        // virtual time: the delays are Reactor's Retry.backoff with no jitter, checked to the millisecond
        AtomicInteger attempts = new AtomicInteger();
        StepVerifier.withVirtualTime(() -> Resilient.forever(ctx, "vmstat@h", Topic.VMSTAT, () -> {
            int n = attempts.incrementAndGet();
            // attempts 1-4 fail; the 5th delivers a record and fails; the 6th fails again
            return n == 5 ? Flux.just(vmstat(ctx.nowUs())).concatWith(Flux.error(new IllegalStateException("again")))
                    : Flux.error(new IllegalStateException("down " + n));
        }, new Backoff(Duration.ofMillis(500), Duration.ofSeconds(3)), VirtualTimeScheduler.get()))
                .expectSubscription()
                .assertNext(r -> assertThat(gap(r).attempt()).isEqualTo(1))
                .expectNoEvent(Duration.ofMillis(499))
                .thenAwait(Duration.ofMillis(1))
                .assertNext(r -> assertThat(gap(r).attempt()).isEqualTo(2))
                .expectNoEvent(Duration.ofMillis(999))
                .thenAwait(Duration.ofMillis(1))
                .assertNext(r -> assertThat(gap(r).attempt()).isEqualTo(3))
                .expectNoEvent(Duration.ofMillis(1999))
                .thenAwait(Duration.ofMillis(1))
                .assertNext(r -> assertThat(gap(r).attempt()).isEqualTo(4))
                // capped at 3 s, not 4
                .expectNoEvent(Duration.ofMillis(2999))
                .thenAwait(Duration.ofMillis(1))
                .assertNext(r -> assertThat(gap(r).attempt()).isEqualTo(0))
                .assertNext(r -> assertThat(r).isInstanceOf(Vmstat.class))
                .assertNext(r -> assertThat(gap(r)).extracting(Gap::attempt, Gap::reason).containsExactly(1, "again"))
                // a record arrived: the next delay is the first again
                .expectNoEvent(Duration.ofMillis(499))
                .thenAwait(Duration.ofMillis(1))
                .assertNext(r -> assertThat(gap(r).attempt()).isEqualTo(2))
                .thenCancel()
                .verify(Duration.ofSeconds(10));
        assertThat(attempts.get()).isEqualTo(6);
    }

    private static Gap gap(Object record) {
        return (Gap) ((Marker) record).body();
    }
}
