package io.rigscope.collectors.process;

import io.rigscope.collectors.Backoff;
import io.rigscope.collectors.CollectorContext;
import io.rigscope.collectors.Resilient;
import io.rigscope.model.proc.ProcStat;
import io.rigscope.model.topic.Topic;
import io.rigscope.model.wire.ProcessMetrics;
import io.rigscope.model.wire.WireRecord;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * The service's process seen from outside, on the same host ({@code rig.process}): every {@code interval} (1 s) one
 * {@link ProcessMetrics} from Linux's {@code /proc}:
 * <ul>
 *   <li>CPU from the sum over its threads of {@code /proc/PID/task/TID/schedstat}'s time on a CPU (ns, exact), and its
 *       run-queue wait from the same files' time runnable but waiting; a thread that ended between two readings is
 *       left out of that interval, a new one counts from its start;</li>
 *   <li>RSS from {@code /proc/PID/status} ({@code VmRSS}), threads from {@code /proc/PID/stat};</li>
 *   <li>stops: the process's state ({@code /proc/PID/stat}) is looked at every {@code poll} (100 ms); each look that
 *       finds it stopped ({@code T}, {@code t}: SIGSTOP, a debugger) counts one poll's time;</li>
 *   <li>for a HotSpot JVM, GC and safepoint time from its performance counters ({@link HsPerfData}:
 *       {@code sun.gc.collector.N.time}, {@code sun.rt.safepointTime}, ticks of {@code sun.os.hrt.frequency}).</li>
 * </ul>
 * The first reading sets the baseline; records start one interval later. A process that exits ends the stream with an
 * error, which {@link Resilient} reports as a gap and retries (a restarted pid is never looked for). Reading runs on
 * {@code boundedElastic}.
 *
 * <pre>{@code
 * Flux<WireRecord> records = new ProcessCollector(new ProcessCollector.Config(sut.pid(), null, null, null),
 *         CollectorContext.of(seriesId)).records();
 * }</pre>
 */
public final class ProcessCollector {

    /**
     * @param pid the process to watch
     * @param interval time between records (default 1 s)
     * @param poll how often its state is looked at, for stops (default 100 ms; at most {@code interval})
     * @param proc the proc filesystem (default {@code /proc})
     */
    public record Config(long pid, Duration interval, Duration poll, Path proc) {
        public Config {
            if (pid <= 0) {
                throw new IllegalArgumentException("--pid must be > 0, got " + pid);
            }
            interval = interval == null ? Duration.ofSeconds(1) : interval;
            poll = poll == null ? Duration.ofMillis(100) : poll;
            proc = proc == null ? Path.of("/proc") : proc;
            if (poll.isZero() || poll.isNegative() || poll.compareTo(interval) > 0) {
                throw new IllegalArgumentException("the poll (" + poll + ") must be > 0 and at most the interval ("
                        + interval + ")");
            }
        }
    }

    private final Config config;
    private final CollectorContext ctx;

    public ProcessCollector(Config config, CollectorContext ctx) {
        this.config = Objects.requireNonNull(config, "config");
        this.ctx = Objects.requireNonNull(ctx, "ctx");
    }

    /** {@code process@HOST}. */
    public String src() {
        return ctx.src("process");
    }

    /** A cold, endless Flux of process records and gap markers. */
    public Flux<WireRecord> records() {
        return records(Schedulers.boundedElastic(), Backoff.defaults());
    }

    Flux<WireRecord> records(Scheduler io, Backoff backoff) {
        return Resilient.forever(ctx, src(), Topic.PROCESS, () -> {
            Watch watch = new Watch();
            long pollsPerRecord = Math.max(1, config.interval().toNanos() / config.poll().toNanos());
            return Flux.interval(Duration.ZERO, config.poll(), io)
                    .onBackpressureDrop()
                    .concatMap(tick -> Mono.fromCallable(() -> watch.poll(tick % pollsPerRecord == 0))
                            .flatMap(Mono::justOrEmpty));
        }, backoff, io);
    }

    /** One subscription's state: the baseline and the stops seen since the last record. Used by one thread at a time. */
    private final class Watch {
        private Reading last;
        private int stoppedPolls;
        private final Optional<HsPerfData> jvm = HsPerfData.find(Path.of(System.getProperty("java.io.tmpdir")),
                config.pid());

        Optional<ProcessMetrics> poll(boolean record) throws IOException {
            Path dir = config.proc().resolve(Long.toString(config.pid()));
            ProcStat stat = ProcStat.read(dir.resolve("stat"));
            char state = stat.state();
            if (state == 'T' || state == 't') {
                stoppedPolls++;
            }
            if (!record) {
                return Optional.empty();
            }
            Reading now = read(dir, stat);
            Reading before = last;
            last = now;
            if (before == null) {
                stoppedPolls = 0;
                return Optional.empty();
            }
            double intervalNs = Math.max(1, now.nanoTime - before.nanoTime);
            long runNs = 0;
            long waitNs = 0;
            long waitMaxNs = 0;
            for (Map.Entry<Long, long[]> t : now.threads.entrySet()) {
                long[] a = before.threads.get(t.getKey());
                long[] b = t.getValue();
                runNs += a == null ? b[0] : Math.max(0, b[0] - a[0]);
                long w = a == null ? b[1] : Math.max(0, b[1] - a[1]);
                waitNs += w;
                waitMaxNs = Math.max(waitMaxNs, w);
            }
            double pollMs = config.poll().toNanos() / 1e6;
            double stoppedMs = Math.min(stoppedPolls * pollMs, intervalNs / 1e6);
            stoppedPolls = 0;
            Double gcMs = null;
            Double safepointMs = null;
            if (now.jvm != null && before.jvm != null) {
                Long hz = now.jvm.get("sun.os.hrt.frequency");
                if (hz != null && hz > 0) {
                    gcMs = ticksMs(gcTicks(now.jvm) - gcTicks(before.jvm), hz);
                    Long sp = now.jvm.get("sun.rt.safepointTime");
                    Long sp0 = before.jvm.get("sun.rt.safepointTime");
                    safepointMs = sp == null || sp0 == null ? null : ticksMs(sp - sp0, hz);
                }
            }
            return Optional.of(new ProcessMetrics(ctx.run(), ctx.rep(), src(), ctx.nowUs(), config.pid(), now.command,
                    round(intervalNs / 1e6), round(100.0 * runNs / intervalNs), Runtime.getRuntime().availableProcessors(),
                    now.rssBytes, now.threadCount, round(waitNs / 1e6), round(stoppedMs), round(pollMs), gcMs,
                    safepointMs, round(waitMaxNs / 1e6)));
        }

        private Reading read(Path dir, ProcStat stat) throws IOException {
            Reading r = new Reading();
            r.nanoTime = System.nanoTime();
            r.command = Files.readString(dir.resolve("comm")).strip();
            r.threadCount = (int) stat.threads();
            r.rssBytes = rssBytes(dir);
            try (DirectoryStream<Path> tasks = Files.newDirectoryStream(dir.resolve("task"))) {
                for (Path task : tasks) {
                    try {
                        String[] f = Files.readString(task.resolve("schedstat")).strip().split("\\s+");
                        r.threads.put(Long.parseLong(task.getFileName().toString()),
                                new long[] {Long.parseLong(f[0]), Long.parseLong(f[1])});
                    } catch (NoSuchFileException e) {
                        // the thread ended while we looked
                    }
                }
            }
            r.jvm = jvm.map(HsPerfData::longs).filter(m -> !m.isEmpty()).orElse(null);
            return r;
        }
    }

    private static final class Reading {
        long nanoTime;
        String command;
        int threadCount;
        long rssBytes;
        final Map<Long, long[]> threads = new HashMap<>();
        Map<String, Long> jvm;
    }

    private static long rssBytes(Path dir) throws IOException {
        for (String line : Files.readAllLines(dir.resolve("status"))) {
            if (line.startsWith("VmRSS:")) {
                String[] f = line.substring(6).strip().split("\\s+");
                return Long.parseLong(f[0]) * 1024;
            }
        }
        return 0;
    }

    private static long gcTicks(Map<String, Long> counters) {
        long sum = 0;
        for (Map.Entry<String, Long> e : counters.entrySet()) {
            if (e.getKey().startsWith("sun.gc.collector.") && e.getKey().endsWith(".time")) {
                sum += e.getValue();
            }
        }
        return sum;
    }

    private static double ticksMs(long ticks, long hz) {
        return round(Math.max(0, ticks) * 1000.0 / hz);
    }

    private static double round(double v) {
        return Math.round(v * 1000) / 1000.0;
    }

    /** Visible for tests: a fresh map of counters parsed from bytes. */
    static Map<String, Long> perfCounters(byte[] hsperfdata) {
        return new HashMap<>(HsPerfData.parse(hsperfdata));
    }
}
