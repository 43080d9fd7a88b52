package io.rigscope.collectors;

import io.rigscope.model.topic.Topic;
import io.rigscope.model.wire.Marker;
import io.rigscope.model.wire.WireRecord;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * Keeps a collector running while its source comes and goes.
 *
 * <p>{@link #forever} subscribes to a fresh attempt of the source; when the attempt fails, or ends (a
 * collector's source is endless, so an end is a failure too), it emits a {@link Marker.Kind#GAP} marker
 * and subscribes again after a {@link Backoff} delay, forever, until the caller cancels. Gap markers tile
 * the lost time: the first covers from the last record (or the subscription) to the failure, each further
 * failed attempt covers from the previous marker's end to its own failure, and when records flow again a
 * closing marker covers the rest, up to the first new record. Each marker's {@code data} holds
 * {@code start} and {@code end} (epoch µs), {@code reason} (the failure in words), {@code source} (the
 * collector's src), {@code topic} (the topic its records go to: the analyzer counts the stream as missing over
 * the gap) and {@code attempt} (failures in a row so far, 0 on the closing marker).
 */
public final class Resilient {

    private Resilient() {
    }

    /**
     * @param ctx series, repeat and clock for the gap markers
     * @param src the collector's producer id, e.g. {@code vmstat@app-1}
     * @param topic the topic of the collector's records
     * @param attempt builds one attempt of the source; called again after each failure
     * @param backoff delays between attempts
     * @param timer scheduler for the delays
     * @return a cold, endless Flux of the source's records and gap markers
     */
    public static Flux<WireRecord> forever(CollectorContext ctx, String src, Topic topic,
                                           Supplier<? extends Flux<? extends WireRecord>> attempt, Backoff backoff,
                                           Scheduler timer) {
        return Flux.defer(() -> {
            var state = new GapState(ctx, src, topic);
            Flux<WireRecord> once = Flux.defer(() -> Flux.<WireRecord>from(attempt.get()))
                    .concatMap(state::pass)
                    .concatWith(Mono.error(() -> new SourceEnded(src)))
                    .onErrorResume(e -> Flux.concat(Mono.fromSupplier(() -> state.failed(describe(e))),
                            Mono.defer(() -> Mono.delay(backoff.delayAfter(state.failures), timer)).then(Mono.empty())));
            return once.repeat();
        });
    }

    /** A failure in words, without a stack trace, at most 400 characters. */
    public static String describe(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t && (t.getMessage() == null || t.getMessage().isBlank())) {
            t = t.getCause();
        }
        String msg = t.getMessage();
        String text = msg == null || msg.isBlank() ? t.getClass().getSimpleName() : msg;
        return text.length() > 400 ? text.substring(0, 397) + "..." : text;
    }

    /** The source completed although collectors' sources never end. */
    static final class SourceEnded extends RuntimeException {
        private static final long serialVersionUID = 1L;

        SourceEnded(String src) {
            super(src + ": source ended");
        }
    }

    /** Per subscription: where the last record or gap ended and how many attempts failed in a row. */
    private static final class GapState {
        private final CollectorContext ctx;
        private final String src;
        private final Topic topic;
        private long sinceUs;
        private int failures;
        private String lastReason;

        GapState(CollectorContext ctx, String src, Topic topic) {
            this.ctx = ctx;
            this.src = src;
            this.topic = java.util.Objects.requireNonNull(topic, "topic");
            this.sinceUs = ctx.nowUs();
        }

        Flux<WireRecord> pass(WireRecord r) {
            if (failures == 0) {
                sinceUs = Math.max(sinceUs, r.ts());
                return Flux.just(r);
            }
            long end = Math.max(sinceUs, Math.min(r.ts(), ctx.nowUs()));
            Marker closing = marker(sinceUs, end, "recovered after " + failures + " failed attempt(s); last: " + lastReason, 0);
            failures = 0;
            sinceUs = Math.max(end, r.ts());
            return Flux.just(closing, r);
        }

        Marker failed(String reason) {
            failures++;
            lastReason = reason;
            long now = Math.max(ctx.nowUs(), sinceUs);
            Marker m = marker(sinceUs, now, reason, failures);
            sinceUs = now;
            return m;
        }

        private Marker marker(long startUs, long endUs, String reason, int attempt) {
            Map<String, Object> data = new LinkedHashMap<>();
            data.put("start", startUs);
            data.put("end", endUs);
            data.put("reason", reason);
            data.put("source", src);
            data.put("topic", topic.topicName());
            data.put("attempt", attempt);
            return new Marker(ctx.run(), ctx.rep(), src, Math.max(1, endUs), Marker.Kind.GAP, null, data);
        }
    }
}
