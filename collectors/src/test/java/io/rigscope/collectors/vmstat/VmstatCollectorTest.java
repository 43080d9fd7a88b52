package io.rigscope.collectors.vmstat;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.collectors.Backoff;
import io.rigscope.collectors.CollectorContext;
import io.rigscope.model.wire.Marker;
import io.rigscope.model.wire.Vmstat;
import io.rigscope.model.wire.WireRecord;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import reactor.core.scheduler.Schedulers;

@Tag("it")
class VmstatCollectorTest {

    @Test
    void theRealVmstatYieldsOneRecordPerSecondAfterTheSinceBootLine() {
        var collector = new VmstatCollector(VmstatCollector.Config.defaults(), CollectorContext.of("s1"));
        List<WireRecord> out = collector.records().take(2).collectList().block(Duration.ofSeconds(15));

        assertThat(out).hasSize(2).allSatisfy(r -> assertThat(r).isInstanceOf(Vmstat.class));
        long nowUs = System.currentTimeMillis() * 1000;
        assertThat(out.get(1).ts() - out.get(0).ts()).isEqualTo(1_000_000L);
        assertThat(out.get(1).ts()).isBetween(nowUs - 5_000_000, nowUs + 1_000_000);
        assertThat(out.get(0).src()).startsWith("vmstat@");
    }

    @Test
    void aMissingVmstatYieldsGapMarkersInsteadOfAnError() {
        var collector = new VmstatCollector(new VmstatCollector.Config("/nonexistent/vmstat", null),
                CollectorContext.of("s1"));
        List<WireRecord> out = collector.records(Schedulers.boundedElastic(),
                new Backoff(Duration.ofMillis(10), Duration.ofMillis(20))).take(3).collectList().block(Duration.ofSeconds(10));

        assertThat(out).hasSize(3).allSatisfy(r -> {
            assertThat(r).isInstanceOf(Marker.class);
            assertThat(((Marker) r).kind()).isEqualTo(Marker.Kind.GAP);
            assertThat(((io.rigscope.model.wire.Gap) ((Marker) r).body()).reason()).contains("/nonexistent/vmstat");
        });
    }
}
