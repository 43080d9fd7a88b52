package io.rigscope.collectors.vmstat;

import io.rigscope.model.topic.Topic;
import io.rigscope.collectors.Backoff;
import io.rigscope.collectors.CollectorContext;
import io.rigscope.collectors.Resilient;
import io.rigscope.model.wire.WireRecord;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import reactor.core.publisher.Flux;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * The vmstat collector: runs {@code vmstat -n -t INTERVAL} and publishes each data line as a
 * {@link io.rigscope.model.wire.Vmstat} on {@code rig.vmstat}.
 *
 * <p>The first data line vmstat prints holds averages since boot, not the interval, and is dropped. When
 * vmstat exits or cannot start, a gap marker is emitted and it is started again with backoff. Cancelling
 * the Flux kills the process.
 */
public final class VmstatCollector {

    /**
     * @param command the vmstat executable ({@code vmstat} on the PATH by default)
     * @param interval seconds between lines (whole seconds, at least 1)
     */
    public record Config(String command, Duration interval) {
        public Config {
            command = command == null ? "vmstat" : command;
            interval = interval == null ? Duration.ofSeconds(1) : interval;
            if (interval.toSeconds() < 1) {
                throw new IllegalArgumentException("vmstat interval must be at least 1 s, was " + interval);
            }
        }

        public static Config defaults() {
            return new Config(null, null);
        }
    }

    private final Config config;
    private final CollectorContext ctx;

    public VmstatCollector(Config config, CollectorContext ctx) {
        this.config = Objects.requireNonNull(config, "config");
        this.ctx = Objects.requireNonNull(ctx, "ctx");
    }

    public String src() {
        return ctx.src("vmstat");
    }

    /** A cold, endless Flux of vmstat records and gap markers. */
    public Flux<WireRecord> records() {
        return records(Schedulers.boundedElastic(), Backoff.defaults());
    }

    Flux<WireRecord> records(Scheduler io, Backoff backoff) {
        return Resilient.forever(ctx, src(), Topic.VMSTAT, () -> {
            var parser = new VmstatParser(ctx, src(), null);
            return lines().concatMapIterable(line -> parser.accept(line).<List<WireRecord>>map(List::of)
                    .orElse(List.of())).skip(1).subscribeOn(io);
        }, backoff, io);
    }

    private Flux<String> lines() {
        List<String> cmd = new ArrayList<>(List.of(config.command(), "-n", "-t",
                String.valueOf(config.interval().toSeconds())));
        return Flux.using(() -> new ProcessBuilder(cmd).redirectErrorStream(true).start(),
                process -> Flux.<String, BufferedReader>generate(() -> new BufferedReader(new InputStreamReader(process.getInputStream(),
                        StandardCharsets.UTF_8)), (reader, sink) -> {
                            try {
                                String line = reader.readLine();
                                if (line == null) {
                                    sink.error(new IOException(config.command() + " exited (code "
                                            + exitCode(process) + ")"));
                                } else {
                                    sink.next(line);
                                }
                            } catch (IOException e) {
                                sink.error(e);
                            }
                            return reader;
                        }),
                process -> {
                    process.destroy();
                    process.descendants().forEach(ProcessHandle::destroy);
                });
    }

    private static String exitCode(Process p) {
        try {
            return p.waitFor(1, java.util.concurrent.TimeUnit.SECONDS) ? String.valueOf(p.exitValue()) : "running";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }
}
