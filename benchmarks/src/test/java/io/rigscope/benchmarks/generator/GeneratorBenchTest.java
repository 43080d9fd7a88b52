package io.rigscope.benchmarks.generator;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.generator.GeneratorOptions;
import io.rigscope.model.wire.Sample;
import io.rigscope.model.wire.SampleBatch;
import io.rigscope.model.wire.WireRecord;
import io.rigscope.generator.target.BenchServer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The generator benchmark against its own server in this JVM. */
@Tag("it")
class GeneratorBenchTest {

    @Test
    void serviceTimesAreThoseOfTheSamplesTheRunPublished() {
        List<WireRecord> published = new CopyOnWriteArrayList<>();
        BenchResult r;
        try (BenchServer server = new BenchServer(1)) {
            r = new GeneratorBench(server, published::add, GeneratorOptions.defaults().withIoThreads(1), 64)
                    .run(200, Duration.ofSeconds(1));
        }

        List<Sample> samples = published.stream().filter(SampleBatch.class::isInstance)
                .flatMap(b -> ((SampleBatch) b).samples().stream()).toList();
        assertThat(samples).hasSize((int) r.completed());
        assertThat(r.sent() + r.dropped()).isEqualTo(200);
        assertThat(r.failed()).isZero();
        Histogram serviceUs = new Histogram(Duration.ofHours(1).toNanos() / 1_000, 3);
        samples.forEach(s -> serviceUs.recordValue(s.serviceUs()));
        assertThat(r.serviceP50Ms()).isPositive().isEqualTo(serviceUs.getValueAtPercentile(50) / 1000.0);
        assertThat(r.serviceP99Ms()).isEqualTo(serviceUs.getValueAtPercentile(99) / 1000.0);
    }
}
