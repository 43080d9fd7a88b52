package io.rigscope.rig.bench;

import io.rigscope.generator.GeneratorOptions;
import io.rigscope.generator.RecordSink;
import io.rigscope.generator.bench.BenchResult;
import io.rigscope.generator.bench.GeneratorBench;
import io.rigscope.generator.http.ClientLoops;
import io.rigscope.model.wire.WireRecord;
import io.rigscope.rig.options.ConsoleLogging;
import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;

/**
 * rigscope's own side of {@code bench generator --vs-peers}: a JVM of its own that speaks the same line protocol as
 * the peers' drivers (peers/common, {@code PeerDriver}) and runs each step through {@link GeneratorBench} (the real
 * generator: scheduler, client, sample batcher, outbox, health; records counted and dropped, not published). Its
 * settings come from system properties the bench sets: {@code rigscope.peer.threads} (client event loops),
 * {@code rigscope.peer.max-in-flight}, {@code rigscope.peer.min-wake-gap-us}, {@code rigscope.peer.preconnect-ms},
 * {@code rigscope.peer.poll-us}, {@code rigscope.peer.max-send-lag-us} (0: precise), {@code rigscope.peer.busy-poll}.
 */
public final class RigscopePeer {

    private RigscopePeer() {
    }

    public static void main(String[] args) throws Exception {
        PrintStream protocol = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
        System.setOut(System.err);
        ConsoleLogging.configure(); // as the rigscope command logs
        if (args.length != 1) {
            protocol.println("error usage: RigscopePeer URL");
            System.exit(2);
        }
        // this process's client loops, for every step; closed when it quits
        ClientLoops loops = ClientLoops.open(Integer.getInteger("rigscope.peer.threads", 1));
        GeneratorOptions options = GeneratorOptions.defaults().withClientLoops(loops)
                .withMinWakeGapNanos(Long.getLong("rigscope.peer.min-wake-gap-us", 50) * 1000)
                .withPreconnect(Duration.ofMillis(Long.getLong("rigscope.peer.preconnect-ms", 100)))
                .withPollNanos(Long.getLong("rigscope.peer.poll-us", 0) * 1000)
                .withMaxSendLagNanos(Long.getLong("rigscope.peer.max-send-lag-us",
                        GeneratorOptions.DEFAULT_MAX_SEND_LAG_NANOS / 1000) * 1000)
                .withBusyPoll(Boolean.getBoolean("rigscope.peer.busy-poll"));
        RecordSink discard = new RecordSink() {
            @Override
            public void publish(WireRecord record) {
                // the bench reads the generator's run summary; the records themselves are not needed
            }

            @Override
            public void flush() {
            }
        };
        GeneratorBench bench = new GeneratorBench(URI.create(args[0]), null, discard, options,
                Integer.getInteger("rigscope.peer.max-in-flight", 1000));
        protocol.println("ready tool=rigscope version=" + PeerBench.rigscopeVersion());
        try (loops; BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                String[] f = line.strip().split("\\s+");
                if (f[0].equals("quit")) {
                    break;
                }
                if (!f[0].equals("step") || f.length != 3) {
                    protocol.println("error unknown command: " + line);
                    continue;
                }
                try {
                    BenchResult r = bench.run(Double.parseDouble(f[1]), Duration.ofMillis(Long.parseLong(f[2])));
                    protocol.println("ended");
                    protocol.println(String.format(Locale.ROOT, "result sent=%d errors=%d dropped=%d capped=%b "
                                    + "lag_p50_ms=%.4f lag_p99_ms=%.4f lag_max_ms=%.4f p50_ms=%.4f p99_ms=%.4f "
                                    + "latency=service_time_t2-t1",
                            r.sent(), r.failed(), r.dropped(), r.dropped() > 0, r.lagP50Ms(), r.lagP99Ms(),
                            r.lagMaxMs(), r.serviceP50Ms(), r.serviceP99Ms()));
                } catch (RuntimeException e) {
                    e.printStackTrace(System.err);
                    protocol.println("ended");
                    protocol.println(("error " + e).replace('\n', ' '));
                }
            }
        }
        System.exit(0);
    }
}
