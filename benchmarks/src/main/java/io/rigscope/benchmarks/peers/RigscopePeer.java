package io.rigscope.benchmarks.peers;

import io.rigscope.generator.GeneratorOptions;
import io.rigscope.generator.outbox.RecordSink;
import io.rigscope.benchmarks.generator.BenchResult;
import io.rigscope.benchmarks.generator.GeneratorBench;
import io.rigscope.generator.http.ClientLoops;
import io.rigscope.generator.plan.DefaultSizing;
import io.rigscope.model.wire.WireRecord;
import io.rigscope.peers.PeerDriver;
import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * rigscope's own side of {@code bench generator --vs-peers}: a {@link PeerDriver} (the peers' line protocol, the one
 * copy in peers/common) in a JVM of its own that runs each step through {@link GeneratorBench} (the real generator:
 * scheduler, client, sample batcher, outbox, health; records counted and dropped, not published). Its settings come
 * from system properties the bench sets: {@code rigscope.peer.threads} (client event loops) and
 * {@code rigscope.peer.max-in-flight} (each absent: the step's by {@code generate}'s rule, {@code DefaultSizing}),
 * {@code rigscope.peer.min-wake-gap-us}, {@code rigscope.peer.preconnect-ms}, {@code rigscope.peer.poll-us},
 * {@code rigscope.peer.max-send-lag-us} (0: precise), {@code rigscope.peer.busy-poll}, and rigscope's version,
 * {@value #VERSION_PROPERTY}. The rigscope command's main class for it sets up the command's logging first
 * ({@link PeerBench.Launch#peerMain()}).
 */
public final class RigscopePeer extends PeerDriver {

    /** The system property the bench passes rigscope's version in. */
    public static final String VERSION_PROPERTY = "rigscope.peer.version";

    /** The bench reads the generator's run summary; the records themselves are not needed. */
    private static final RecordSink DISCARD = new RecordSink() {
        @Override
        public void publish(WireRecord record) {
        }

        @Override
        public void flush() {
        }
    };

    /** The client loops given ({@code rigscope.peer.threads}), or null: each step's by {@code generate}'s rule. */
    private final Integer threads = Integer.getInteger("rigscope.peer.threads");
    /** The in-flight cap given ({@code rigscope.peer.max-in-flight}), or null: each step's by {@code generate}'s rule. */
    private final Integer maxInFlight = Integer.getInteger("rigscope.peer.max-in-flight");
    /** This process's client loops by thread count, opened on the first step that needs them; closed at the end. */
    private final Map<Integer, ClientLoops> loops = new HashMap<>();
    private final GeneratorOptions options = GeneratorOptions.defaults()
            .withMinWakeGapNanos(Long.getLong("rigscope.peer.min-wake-gap-us", 50) * 1000)
            .withPreconnect(Duration.ofMillis(Long.getLong("rigscope.peer.preconnect-ms", 100)))
            .withPollNanos(Long.getLong("rigscope.peer.poll-us", 0) * 1000)
            .withMaxSendLagNanos(Long.getLong("rigscope.peer.max-send-lag-us",
                    GeneratorOptions.DEFAULT_MAX_SEND_LAG_NANOS / 1000) * 1000)
            .withBusyPoll(Boolean.getBoolean("rigscope.peer.busy-poll"));

    private RigscopePeer() {
    }

    public static void main(String[] args) {
        System.setOut(System.err); // nothing may print on the protocol's stdout, before serve() too
        serve(new RigscopePeer(), args);
    }

    @Override
    protected String tool() {
        return "rigscope";
    }

    @Override
    protected String version() {
        return System.getProperty(VERSION_PROPERTY, "unknown");
    }

    @Override
    protected Result step(String url, double rate, Duration length, Runnable ended) {
        // without the properties, what generate does without flags at this rate (DefaultSizing)
        int n = threads != null ? threads : DefaultSizing.clientLoops(rate, Runtime.getRuntime().availableProcessors());
        int cap = maxInFlight != null ? maxInFlight : DefaultSizing.maxInFlight(rate);
        ClientLoops stepLoops = loops.computeIfAbsent(n, ClientLoops::open);
        BenchResult r = new GeneratorBench(URI.create(url), null, DISCARD, options.withClientLoops(stepLoops), cap)
                .run(rate, length);
        return new Result().put("client_loops", n).put("max_in_flight", cap)
                .put("sent", r.sent()).put("errors", r.failed()).put("dropped", r.dropped())
                .put("capped", r.dropped() > 0).put("lag_p50_ms", r.lagP50Ms()).put("lag_p99_ms", r.lagP99Ms())
                .put("lag_max_ms", r.lagMaxMs()).put("p50_ms", r.serviceP50Ms()).put("p99_ms", r.serviceP99Ms())
                .put("latency", "service_time_t2-t1");
    }

    @Override
    protected void close() {
        loops.values().forEach(ClientLoops::close);
    }
}
