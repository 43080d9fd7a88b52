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

    /** A cold, endless Flux of canary seconds and gap markers. */
    public Flux<WireRecord> records() {
        return records(Schedulers.parallel(), Backoff.defaults());
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
        private final AtomicReference<Throwable> failure = new AtomicReference<>();
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
                    long start = System.nanoTime();
                    recorder.started(start);
                    channel.write(block, (n % blocks) * config.writeBytes());
                    channel.force(false);
                    recorder.completed(start, System.nanoTime());
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
            }
        }

        Canary second() {
            Throwable t = failure.get();
            if (t != null) {
                throw new IllegalStateException("canary write to " + path + " failed: " + Resilient.describe(t), t);
            }
            CanaryRecorder.Second s = recorder.takeSecond(System.nanoTime());
            return new Canary(ctx.run(), ctx.rep(), src(), ctx.nowUs(), path.toString(), s.fsyncs(), s.maxUs(),
                    s.p99Us(), s.stalledIntervals());
        }

        void stop() {
            running = false;
            try {
                thread.join(2_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            try {
                channel.close();
                Files.deleteIfExists(path);
            } catch (IOException ignored) {
                // the file is in a temp or data directory's parent; a leftover is harmless
            }
        }
    }
}
