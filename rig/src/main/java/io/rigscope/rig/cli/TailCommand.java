package io.rigscope.rig.cli;

import io.rigscope.localenv.kafka.KafkaEndpoint;
import io.rigscope.model.codec.Decoded;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.model.codec.WireLine;
import io.rigscope.model.topic.Topic;
import io.rigscope.model.wire.WireRecord;
import io.rigscope.rig.options.Durations;
import io.rigscope.rig.options.ExitCodes;
import io.rigscope.rig.options.KafkaOptions;
import io.rigscope.rig.options.UsageException;
import io.rigscope.wire.WireSource;
import io.rigscope.wire.kafka.TopicAdmin;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code rigscope tail TOPIC}: prints a topic's records as they arrive. */
@Command(name = "tail", mixinStandardHelpOptions = true,
        description = "Print a topic's records as they arrive (Ctrl-C to stop).")
final class TailCommand implements Callable<Integer> {

    @Mixin
    KafkaOptions kafka = new KafkaOptions();

    @Parameters(index = "0", paramLabel = "TOPIC", description = "A rigscope topic, e.g. rig.samples, or 'all'.")
    String topicName;

    @Option(names = "--series", paramLabel = "ID", description = "Only records of this series.")
    String series;

    @Option(names = "--from-beginning", description = "Start at the oldest record (default: only new ones).")
    boolean fromBeginning;

    @Option(names = "--json", description = "Print each record as a wire-file line (JSON).")
    boolean json;

    @Option(names = "--limit", paramLabel = "N", description = "Stop after N records.")
    long limit = Long.MAX_VALUE;

    @Option(names = "--no-follow", description = "Stop at the end of what the topic holds now.")
    boolean noFollow;

    @Option(names = "--timeout", paramLabel = "DURATION",
            description = "Stop after this long, e.g. 30s, 5m (default: never).")
    Duration timeout;

    @Override
    public Integer call() {
        Set<Topic> topics = "all".equals(topicName) ? EnumSet.allOf(Topic.class)
                : EnumSet.of(Topic.byName(topicName).orElseThrow(() -> new UsageException(
                        "unknown topic '" + topicName + "'; one of: " + names())));
        Duration stopAfter = Durations.positive("--timeout", timeout);
        WireCodec codec = new WireCodec();
        try (KafkaEndpoint endpoint = kafka.open(); TopicAdmin admin = new TopicAdmin(endpoint.clients())) {
            admin.ensureTopics();
            var source = new WireSource(endpoint.clients(), codec);
            AtomicLong printed = new AtomicLong();
            var flux = source.records(new WireSource.Spec(topics, series, fromBeginning, !noFollow),
                            (Decoded.Failed f) -> System.err.println("undecodable: " + f.deadLetter().origin() + ": "
                                    + f.deadLetter().reason()))
                    .take(limit);
            if (stopAfter != null) {
                flux = flux.take(stopAfter);
            }
            flux.doOnNext(r -> {
                System.out.println(json ? WireLine.of(codec, r).render(codec) : line(r));
                printed.incrementAndGet();
            }).blockLast();
            System.err.println("tail: " + printed.get() + " record(s)");
            return ExitCodes.OK;
        }
    }

    private static String line(WireRecord r) {
        String text = r.toString();
        return r.topic().topicName() + " " + (text.length() > 400 ? text.substring(0, 400) + "..." : text);
    }

    private static String names() {
        return String.join(", ", List.of(Topic.values()).stream().map(Topic::topicName).toList()) + ", all";
    }
}
