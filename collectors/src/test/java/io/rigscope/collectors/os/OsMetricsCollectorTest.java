package io.rigscope.collectors.os;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.rigscope.collectors.CollectorContext;
import io.rigscope.model.wire.OsMetrics;
import io.rigscope.model.wire.WireRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OsMetricsCollectorTest {

    @Test
    void diskFiguresFollowIostatDefinitions() {
        var a = new ProcSnapshot.Disk(254, 0, "vda", 100, 1000, 50, 200, 4000, 300, 1000, 2000);
        // +10 reads of 80 sectors (40 KB), +40 writes of 1600 sectors (800 KB), 60 ms reading, 340 ms writing,
        // busy 500 ms, weighted 2500 ms, over 1 s
        var b = new ProcSnapshot.Disk(254, 0, "vda", 110, 1080, 110, 240, 5600, 640, 1500, 4500);
        OsMetrics.DiskIO io = OsMetricsCollector.diskIO(a, b, 1.0);

        assertThat(io.readIOsPS()).isEqualTo(10.0);
        assertThat(io.writeIOsPS()).isEqualTo(40.0);
        assertThat(io.readKbPS()).isEqualTo(40.0);
        assertThat(io.writeKbPS()).isEqualTo(800.0);
        assertThat(io.avgReqSz()).isCloseTo(840.0 / 50, within(1e-9));
        assertThat(io.await()).isCloseTo(400.0 / 50, within(1e-9));
        assertThat(io.avgQueueLen()).isCloseTo(2.5, within(1e-9));
        assertThat(io.util()).isCloseTo(50.0, within(1e-9));
    }

    @Test
    void cpuPercentagesComeFromTickDeltas() {
        long[] a = {100, 0, 50, 800, 50, 0, 0, 0, 0, 0};
        long[] b = {160, 0, 70, 900, 70, 0, 0, 0, 0, 0};
        OsMetrics.Cpu cpu = OsMetricsCollector.cpu(a, b);
        assertThat(cpu.user()).isCloseTo(30.0, within(1e-9));
        assertThat(cpu.system()).isCloseTo(10.0, within(1e-9));
        assertThat(cpu.ioWait()).isCloseTo(10.0, within(1e-9));
        assertThat(cpu.idle()).isCloseTo(50.0, within(1e-9));
        assertThat(cpu.total()).isCloseTo(40.0, within(1e-9));
    }

    @Test
    void theRealProcYieldsADocumentForTheDeviceHoldingTheDirectory(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("f"), "x");
        var collector = new OsMetricsCollector(new OsMetricsCollector.Config(dir, Duration.ofMillis(300), null),
                CollectorContext.of("s1"));
        List<WireRecord> out = collector.records().take(2).collectList().block(Duration.ofSeconds(10));

        assertThat(out).hasSize(2).allSatisfy(r -> assertThat(r).isInstanceOf(OsMetrics.class));
        OsMetrics doc = (OsMetrics) out.get(1);
        assertThat(doc.engine()).isEqualTo("LOCAL");
        assertThat(doc.diskIO()).isNotEmpty();
        assertThat(doc.diskIO().get(0).device()).isEqualTo(DeviceResolver.resolve(dir, Path.of("/proc")));
        assertThat(doc.memory().total()).isPositive();
        assertThat(doc.cpuUtilization().idle() + doc.cpuUtilization().total()).isBetween(0.0, 100.0001);
        assertThat(doc.loadAverageMinute().one()).isGreaterThanOrEqualTo(0);
    }
}
