package io.rigscope.benchmarks.peers;

import io.rigscope.generator.GeneratorOptions;
import io.rigscope.generator.outbox.RecordSink;
import io.rigscope.benchmarks.generator.BenchResult;
import io.rigscope.benchmarks.generator.GeneratorBench;
import io.rigscope.generator.http.ClientLoops;
import io.rigscope.model.wire.WireRecord;
import io.rigscope.peers.PeerDriver;
import java.net.URI;
import java.time.Duration;

/**
 * rigscope's own side of {@code bench generator --vs-peers}: a {@link PeerDriver} (the peers' line protocol, the one
 * copy in peers/common) in a JVM of its own that runs each step through {@link GeneratorBench} (the real generator:
 * scheduler, client, sample batcher, outbox, health; records counted and dropped, not published). Its settings come
 * from system properties the bench sets: {@code rigscope.peer.threads} (client event loops),
 * {@code rigscope.peer.max-in-flight}, {@code rigscope.peer.min-wake-gap-us}, {@code rigscope.peer.preconnect-ms},
 * {@code rigscope.peer.poll-us}, {@code rigscope.peer.max-send-lag-us} (0: precise), {@code rigscope.peer.busy-poll},
 * and rigscope's version, {@value #VERSION_PROPERTY}. The rigscope command's main class for it sets up the command's
 * logging first ({@link PeerBench.Launch#peerMain()}).
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

    /** This process's client loops, for every step; closed when the protocol ends. */
    private final ClientLoops loops = ClientLoops.open(Integer.getInteger("rigscope.peer.threads", 1));
    private final GeneratorOptions options = GeneratorOptions.defaults().withClientLoops(loops)
            .withMinWakeGapNanos(Long.getLong("rigscope.peer.min-wake-gap-us", 50) * 1000)
            .withPreconnect(Duration.ofMillis(Long.getLong("rigscope.peer.preconnect-ms", 100)))
            .withPollNanos(Long.getLong("rigscope.peer.poll-us", 0) * 1000)
            .withMaxSendLagNanos(Long.getLong("rigscope.peer.max-send-lag-us",
                    GeneratorOptions.DEFAULT_MAX_SEND_LAG_NANOS / 1000) * 1000)
            .withBusyPoll(Boolean.getBoolean("rigscope.peer.busy-poll"));
    private final int maxInFlight = Integer.getInteger("rigscope.peer.max-in-flight", 1000);

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
        BenchResult r = new GeneratorBench(URI.create(url), null, DISCARD, options, maxInFlight).run(rate, length);
        return new Result().put("sent", r.sent()).put("errors", r.failed()).put("dropped", r.dropped())
                .put("capped", r.dropped() > 0).put("lag_p50_ms", r.lagP50Ms()).put("lag_p99_ms", r.lagP99Ms())
                .put("lag_max_ms", r.lagMaxMs()).put("p50_ms", r.serviceP50Ms()).put("p99_ms", r.serviceP99Ms())
                .put("latency", "service_time_t2-t1");
    }

    @Override
    protected void close() {
        loops.close();
    }
}
