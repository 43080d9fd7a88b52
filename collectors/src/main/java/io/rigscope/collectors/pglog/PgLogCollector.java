package io.rigscope.collectors.pglog;

import io.rigscope.model.topic.Topic;
import io.rigscope.collectors.Backoff;
import io.rigscope.collectors.CollectorContext;
import io.rigscope.collectors.Resilient;
import io.rigscope.model.wire.PgLogEvent;
import io.rigscope.model.wire.WireRecord;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * The Postgres log collector: tails a stderr log file and publishes its {@link PgLogEvent}s on
 * {@code rig.pglog}.
 *
 * <p>Every {@code poll} it reads the new lines and feeds them to a {@link PgLogParser}; when a poll finds
 * nothing new, the pending entry is complete and is flushed. When the file cannot be read, a gap marker is
 * emitted and reading retries with backoff, from where it was (the position survives the failure).
 */
public final class PgLogCollector {

    /**
     * @param logFile the server's log file
     * @param prefix its log_line_prefix
     * @param fromStart read what the file already holds (else only lines appended from now on)
     * @param poll how often to look for new lines
     */
    public record Config(Path logFile, LogLinePrefix prefix, boolean fromStart, Duration poll) {
        public Config {
            Objects.requireNonNull(logFile, "log file");
            prefix = prefix == null ? LogLinePrefix.defaults() : prefix;
            poll = poll == null ? Duration.ofMillis(200) : poll;
        }
    }

    private final Config config;
    private final CollectorContext ctx;
    private final AtomicReference<PgLogParser> lastParser = new AtomicReference<>();

    public PgLogCollector(Config config, CollectorContext ctx) {
        this.config = Objects.requireNonNull(config, "config");
        this.ctx = Objects.requireNonNull(ctx, "ctx");
    }

    /** The producer id. */
    public String src() {
        return ctx.src("pglog");
    }

    /** Counts of the most recent subscription's parser (lines, events, raw, ignored). */
    public PgLogParser.Counts counts() {
        PgLogParser p = lastParser.get();
        return p == null ? new PgLogParser.Counts(0, 0, 0, 0) : p.counts();
    }

    /** A cold, endless Flux of log events and gap markers. */
    public Flux<WireRecord> events() {
        return events(Schedulers.boundedElastic(), Backoff.defaults());
    }

    Flux<WireRecord> events(Scheduler io, Backoff backoff) {
        return Flux.defer(() -> {
            var tailer = new LogTailer(config.logFile(), config.fromStart());
            var parser = new PgLogParser(config.prefix(), ctx, src());
            lastParser.set(parser);
            return Resilient.forever(ctx, src(), Topic.PGLOG, () -> Flux.interval(Duration.ZERO, config.poll(), io)
                    .onBackpressureDrop()
                    .concatMap(tick -> Mono.fromCallable(() -> read(tailer, parser)))
                    .concatMapIterable(events -> events), backoff, io);
        });
    }

    private static List<PgLogEvent> read(LogTailer tailer, PgLogParser parser) throws java.io.IOException {
        List<String> lines = tailer.poll();
        if (lines.isEmpty()) {
            return parser.flush();
        }
        List<PgLogEvent> out = new ArrayList<>();
        for (String line : lines) {
            out.addAll(parser.accept(line));
        }
        return out;
    }
}
