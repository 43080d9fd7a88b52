package io.rigscope.collectors.canary;

import io.rigscope.model.topic.Topic;
import io.rigscope.collectors.Backoff;
import io.rigscope.collectors.CollectorContext;
import io.rigscope.collectors.Resilient;
import io.rigscope.model.wire.Canary;
import io.rigscope.model.wire.WireRecord;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import reactor.core.publisher.Flux;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * The disk canary on {@code rig.canary}: writes {@code writeBytes} (8 kB) and calls fdatasync
 * ({@link FileChannel#force force(false)}) every {@code interval} (5 ms) on the filesystem of the Postgres data,
 * from a thread of its own, and reports each second: fsyncs completed, their max and p99 latency (write plus
 * fdatasync, µs; a write still pending at the end of the second counts with its age so far), and the number of
 * intervals in the second in which no fsync completed ({@code stalledIntervals}).
 *
 * <p>A canary thread that waits for a CPU looks exactly like a disk that stalled. So the canary reads its own
 * thread's run-queue wait (Linux {@code /proc/self/task/TID/schedstat}, see {@link TaskSchedstat}) before and
 * after each write+fsync and reports the disk's share beside the total: {@code fsyncMaxDiskUs} and
 * {@code fsyncP99DiskUs} (write+fsync minus the run-queue wait during it), {@code fsyncMaxRunqUs} (the wait during
 * the slowest write), {@code runqUs} (the thread's whole wait in the second) and {@code runqSource =
 * "schedstat"}. Where schedstat is absent or reads {@code 0 0 0}, the record says {@code runqSource =
 * "unavailable"} and carries totals only. Every record carries {@code cpus}, the CPUs online on the host.
 *
 * <p>Writes are scheduled at fixed times (open loop): a write that is late because the previous one stalled
 * starts at once, and intervals it missed count as stalled. The file ({@code .rigscope-canary-PID}, rewritten
 * in place within {@code fileBytes}) is deleted when the Flux is cancelled. A failed write ends the attempt:
 * gap marker, retry with backoff.
 */
public final class DiskCanary {

    /**
     * @param dir a directory on the filesystem to watch (e.g. the data directory's parent)
     * @param interval time between writes (5 ms)
     * @param writeBytes bytes per write (8 kB)
     * @param fileBytes size of the region rewritten in the file
     */
    public record Config(Path dir, Duration interval, int writeBytes, int fileBytes) {
        public Config {
            Objects.requireNonNull(dir, "canary directory");
            interval = interval == null ? Duration.ofMillis(5) : interval;
            writeBytes = writeBytes <= 0 ? 8192 : writeBytes;
            fileBytes = fileBytes <= 0 ? 1024 * 1024 : fileBytes;
            if (interval.isZero() || interval.isNegative()) {
                throw new IllegalArgumentException("canary interval must be > 0, was " + interval);
            }
        }

        /** 8 kB + fdatasync every 5 ms in {@code dir}. */
        public static Config in(Path dir) {
            return new Config(dir, null, 0, 0);
        }
    }

    private final Config config;
    private final CollectorContext ctx;

    public DiskCanary(Config config, CollectorContext ctx) {
        this.config = Objects.requireNonNull(config, "config");
        this.ctx = Objects.requireNonNull(ctx, "ctx");
    }

    public String src() {
        return ctx.src("canary");
    }

    public Path file() {
        return config.dir().resolve(".rigscope-canary-" + ProcessHandle.current().pid());
    }

    /**
     * A cold, endless Flux of canary seconds and gap markers. Each second is read on {@code boundedElastic} (it
     * reads the writer thread's schedstat and stat files).
     */
    public Flux<WireRecord> records() {
        return records(Schedulers.boundedElastic(), Backoff.defaults());
    }

    Flux<WireRecord> records(Scheduler timer, Backoff backoff) {
        return Resilient.forever(ctx, src(), Topic.CANARY, () -> Flux.using(this::startWriter,
                writer -> Flux.interval(Duration.ofSeconds(1), timer).onBackpressureDrop()
                        .map(tick -> writer.second()),
                Writer::stop), backoff, timer);
    }

    private Writer startWriter() throws IOException {
        Writer w = new Writer(file());
        w.thread.start();
        return w;
    }

    /** The writing thread and its recorder. */
    private final class Writer implements Runnable {
        private final Path path;
        private final FileChannel channel;
        private final CanaryRecorder recorder;
        private final Thread thread;
        private final int cpus = onlineCpus();
        private final AtomicReference<Throwable> failure = new AtomicReference<>();
        /** The writer's /proc task directory once it measures its run-queue wait; read by the reader. */
        private volatile Path taskDir;
        /** The reader's own view of the writer's schedstat (reader thread, and stop(); guarded by this). */
        private TaskSchedstat readerView;
        private volatile boolean running = true;

        Writer(Path path) throws IOException {
            this.path = path;
            Files.createDirectories(path.getParent());
            this.channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.READ);
            this.recorder = new CanaryRecorder(config.interval().toNanos(), System.nanoTime());
            this.thread = new Thread(this, "rigscope-canary");
            this.thread.setDaemon(true);
        }

        @Override
        public void run() {
            TaskSchedstat own = openOwnSchedstat();
            ByteBuffer block = ByteBuffer.allocateDirect(config.writeBytes());
            long intervalNs = config.interval().toNanos();
            int blocks = Math.max(1, config.fileBytes() / config.writeBytes());
            long next = System.nanoTime();
            long n = 0;
            try {
                while (running) {
                    long now = System.nanoTime();
                    if (now < next) {
                        LockSupport.parkNanos(next - now);
                        continue;
                    }
                    block.clear();
                    block.putLong(0, n);
                    // the clock first, then the run-queue reading: a wait before the reading is in the total
                    // and not subtracted, so the disk's share is never understated
                    long start = System.nanoTime();
                    long runqBefore = runqWaitNs(own);
                    recorder.started(start, runqBefore);
                    channel.write(block, (n % blocks) * config.writeBytes());
                    channel.force(false);
                    long runqAfter = runqWaitNs(own);
                    long end = System.nanoTime();
                    recorder.completed(start, end, runqBefore >= 0 && runqAfter >= 0 ? runqAfter - runqBefore : -1);
                    n++;
                    next += intervalNs;
                    long after = System.nanoTime();
                    if (next < after) {
                        next = after;
                    }
                }
            } catch (IOException | RuntimeException e) {
                if (running) {
                    failure.set(e);
                }
            } finally {
                closeQuietly(own);
            }
        }

        /**
         * Opens this (the writer) thread's schedstat and starts measuring, or returns null when it cannot (no
         * /proc/thread-self, schedstat absent, unreadable or reading 0 0 0): the seconds then say
         * {@code runqSource = "unavailable"}.
         */
        private TaskSchedstat openOwnSchedstat() {
            Optional<Path> dir = TaskSchedstat.currentThreadDir();
            if (dir.isEmpty()) {
                return null;
            }
            TaskSchedstat.Result opened = TaskSchedstat.open(dir.get());
            if (opened.reader() == null) {
                return null;
            }
            try {
                recorder.measuring(opened.reader().runqWaitNs());
            } catch (IOException e) {
                closeQuietly(opened.reader());
                return null;
            }
            taskDir = dir.get();
            return opened.reader();
        }

        private long runqWaitNs(TaskSchedstat own) {
            if (own == null) {
                return -1;
            }
            try {
                return own.runqWaitNs();
            } catch (IOException | RuntimeException e) {
                return -1;
            }
        }

        /** The writer's scheduling now, read from the reader thread, or null when not measured. */
        private synchronized CanaryRecorder.Sched readSched() {
            Path dir = taskDir;
            if (dir == null) {
                return null;
            }
            try {
                if (readerView == null) {
                    TaskSchedstat.Result opened = TaskSchedstat.open(dir);
                    if (opened.reader() == null) {
                        return null;
                    }
                    readerView = opened.reader();
                }
                return new CanaryRecorder.Sched(readerView.runqWaitNs(), readerView.runnable());
            } catch (IOException | RuntimeException e) {
                return null; // the writer thread ended (its task directory is gone) or procfs failed: unmeasured
            }
        }

        Canary second() {
            Throwable t = failure.get();
            if (t != null) {
                throw new IllegalStateException("canary write to " + path + " failed: " + Resilient.describe(t), t);
            }
            CanaryRecorder.Sched sched = readSched();
            CanaryRecorder.Second s = recorder.takeSecond(System.nanoTime(), sched);
            CanaryRecorder.Runq q = s.runq();
            if (q == null) {
                return new Canary(ctx.run(), ctx.rep(), src(), ctx.nowUs(), path.toString(), s.fsyncs(), s.maxUs(),
                        s.p99Us(), s.stalledIntervals(), Canary.RUNQ_UNAVAILABLE, null, null, null, null, cpus);
            }
            return new Canary(ctx.run(), ctx.rep(), src(), ctx.nowUs(), path.toString(), s.fsyncs(), s.maxUs(),
                    s.p99Us(), s.stalledIntervals(), Canary.RUNQ_SCHEDSTAT, q.maxRunqUs(), q.maxDiskUs(),
                    q.p99DiskUs(), q.runqUs(), cpus);
        }

        void stop() {
            running = false;
            try {
                thread.join(2_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            synchronized (this) {
                closeQuietly(readerView);
                readerView = null;
                taskDir = null;
            }
            try {
                channel.close();
                Files.deleteIfExists(path);
            } catch (IOException ignored) {
                // the file is in a temp or data directory's parent; a leftover is harmless
            }
        }
    }

    private static void closeQuietly(TaskSchedstat s) {
        if (s != null) {
            try {
                s.close();
            } catch (IOException ignored) {
                // a procfs file
            }
        }
    }

    /**
     * The CPUs online on this host: the {@code cpuN} lines of {@code /proc/stat} (where vmstat's {@code r} comes
     * from), else the processors this JVM may use.
     */
    static int onlineCpus() {
        try (var lines = Files.lines(Path.of("/proc/stat"))) {
            long n = lines.filter(l -> l.length() > 3 && l.startsWith("cpu") && Character.isDigit(l.charAt(3)))
                    .count();
            if (n > 0) {
                return (int) n;
            }
        } catch (IOException | RuntimeException e) {
            // not Linux
        }
        return Runtime.getRuntime().availableProcessors();
    }
}
