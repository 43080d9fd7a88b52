package io.rigscope.collectors.os;

import io.rigscope.model.topic.Topic;
import io.rigscope.collectors.Backoff;
import io.rigscope.collectors.CollectorContext;
import io.rigscope.collectors.Resilient;
import io.rigscope.model.wire.OsMetrics;
import io.rigscope.model.wire.WireRecord;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * The local OS collector: every interval, an Enhanced-Monitoring-shaped {@link OsMetrics} from /proc for the
 * device holding the Postgres data directory (and its whole disk when that is a partition).
 *
 * <p>Per device over the interval (as iostat -x computes them): {@code readIOsPS}/{@code writeIOsPS} completed
 * requests per second; {@code readKbPS}/{@code writeKbPS} KB per second (sectors are 512 B);
 * {@code avgReqSz} KB per request; {@code avgQueueLen} the weighted IO time over the interval;
 * {@code await} ms per request; {@code util} percent of the interval the device was busy. CPU percentages
 * come from /proc/stat deltas ({@code total} is busy time: 100 - idle - wait), memory (KB) from /proc/meminfo, load from /proc/loadavg. The first snapshot
 * only sets the baseline; records start one interval later. Engine is {@code LOCAL}.
 */
public final class OsMetricsCollector {

    /**
     * @param dataDir the directory whose device to report (the Postgres data directory)
     * @param interval time between documents
     * @param proc the proc filesystem ({@code /proc})
     */
    public record Config(Path dataDir, Duration interval, Path proc) {
        public Config {
            Objects.requireNonNull(dataDir, "data directory");
            interval = interval == null ? Duration.ofSeconds(1) : interval;
            proc = proc == null ? Path.of("/proc") : proc;
        }
    }

    private final Config config;
    private final CollectorContext ctx;

    public OsMetricsCollector(Config config, CollectorContext ctx) {
        this.config = Objects.requireNonNull(config, "config");
        this.ctx = Objects.requireNonNull(ctx, "ctx");
    }

    public String src() {
        return ctx.src("os");
    }

    /** A cold, endless Flux of OS documents and gap markers. */
    public Flux<WireRecord> records() {
        return records(Schedulers.boundedElastic(), Backoff.defaults());
    }

    Flux<WireRecord> records(Scheduler io, Backoff backoff) {
        return Resilient.forever(ctx, src(), Topic.OS, () -> {
            AtomicReference<ProcSnapshot> previous = new AtomicReference<>();
            return Mono.fromCallable(() -> devices()).flatMapMany(devices -> Flux.interval(Duration.ZERO,
                            config.interval(), io)
                    .onBackpressureDrop()
                    .concatMap(tick -> Mono.fromCallable(() -> ProcSnapshot.read(config.proc())))
                    .concatMap(now -> {
                        ProcSnapshot before = previous.getAndSet(now);
                        return before == null ? Mono.empty() : Mono.just(document(before, now, devices));
                    }));
        }, backoff, io);
    }

    private List<String> devices() throws IOException {
        String device = DeviceResolver.resolve(config.dataDir(), config.proc());
        List<String> out = new ArrayList<>(List.of(device));
        var disks = ProcSnapshot.parseDiskstats(java.nio.file.Files.readAllLines(config.proc().resolve("diskstats")));
        DeviceResolver.wholeDisk(device, disks).ifPresent(out::add);
        return out;
    }

    OsMetrics document(ProcSnapshot a, ProcSnapshot b, List<String> devices) {
        double sec = Math.max(1e-6, (b.nanoTime() - a.nanoTime()) / 1e9);
        List<OsMetrics.DiskIO> io = new ArrayList<>();
        for (String name : devices) {
            ProcSnapshot.Disk x = a.disks().get(name);
            ProcSnapshot.Disk y = b.disks().get(name);
            if (x != null && y != null) {
                io.add(diskIO(x, y, sec));
            }
        }
        return new OsMetrics(ctx.run(), ctx.rep(), src(), ctx.nowUs(), "LOCAL", cpu(a.cpuTicks(), b.cpuTicks()),
                memory(b.memKb()), new OsMetrics.LoadAverage(b.load1(), b.load5(), b.load15()), io, List.of());
    }

    static OsMetrics.DiskIO diskIO(ProcSnapshot.Disk x, ProcSnapshot.Disk y, double sec) {
        long reads = y.reads() - x.reads();
        long writes = y.writes() - x.writes();
        long sectors = (y.sectorsRead() - x.sectorsRead()) + (y.sectorsWritten() - x.sectorsWritten());
        long ios = reads + writes;
        double readKb = (y.sectorsRead() - x.sectorsRead()) / 2.0;
        double writeKb = (y.sectorsWritten() - x.sectorsWritten()) / 2.0;
        double intervalMs = sec * 1000;
        return new OsMetrics.DiskIO(y.name(), reads / sec, writes / sec, readKb / sec, writeKb / sec,
                ios == 0 ? 0 : sectors / 2.0 / ios,
                (y.weightedIoMs() - x.weightedIoMs()) / intervalMs,
                ios == 0 ? 0 : (double) ((y.readMs() - x.readMs()) + (y.writeMs() - x.writeMs())) / ios,
                Math.min(100, 100.0 * (y.ioMs() - x.ioMs()) / intervalMs));
    }

    static OsMetrics.Cpu cpu(long[] a, long[] b) {
        long[] d = new long[10];
        long total = 0;
        for (int i = 0; i < 8; i++) {
            d[i] = Math.max(0, b[i] - a[i]);
            total += d[i];
        }
        d[8] = Math.max(0, b[8] - a[8]);
        if (total == 0) {
            return new OsMetrics.Cpu(0, 0, 0, 0, 0, 0, 0, 100, 0);
        }
        double t = total;
        double idle = 100 * d[3] / t;
        double wait = 100 * d[4] / t;
        return new OsMetrics.Cpu(100 * d[0] / t, 100 * d[2] / t, wait, 100 * (d[5] + d[6]) / t,
                100 * d[1] / t, 100 * d[7] / t, 100 * d[8] / t, idle, Math.max(0, 100 - idle - wait));
    }

    static OsMetrics.Memory memory(Map<String, Long> m) {
        return new OsMetrics.Memory(m.getOrDefault("MemTotal", 0L), m.getOrDefault("MemFree", 0L),
                m.getOrDefault("Cached", 0L), m.getOrDefault("Buffers", 0L), m.getOrDefault("Dirty", 0L),
                m.getOrDefault("Writeback", 0L), m.getOrDefault("Active", 0L), m.getOrDefault("Inactive", 0L));
    }
}
