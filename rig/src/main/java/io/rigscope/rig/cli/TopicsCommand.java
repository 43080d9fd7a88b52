package io.rigscope.rig.cli;

import io.rigscope.localenv.kafka.KafkaEndpoint;
import io.rigscope.model.topic.Topic;
import io.rigscope.rig.options.ExitCodes;
import io.rigscope.rig.options.KafkaOptions;
import io.rigscope.wire.kafka.TopicAdmin;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code rigscope topics}: creates the rig's topics where missing and lists them with record counts per series. */
@Command(name = "topics", mixinStandardHelpOptions = true,
        description = {"Create rigscope's topics where missing (retention kept forever) and list them "
            + "with their record counts per series."})
final class TopicsCommand implements Callable<Integer> {

    @Mixin
    KafkaOptions kafka = new KafkaOptions();

    @Option(names = "--no-counts", description = "List the topics without reading them to count records.")
    boolean noCounts;

    @Override
    public Integer call() {
        try (KafkaEndpoint endpoint = kafka.open(); TopicAdmin admin = new TopicAdmin(endpoint.clients())) {
            List<String> created = admin.ensureTopics();
            if (!created.isEmpty()) {
                System.out.println("created " + created.size() + " topic(s): " + String.join(", ", created));
            }
            Map<String, Map<String, Long>> counts = noCounts ? Map.of() : admin.countsBySeries();
            System.out.printf("%-16s %10s  %-9s %s%n", "TOPIC", "PARTITIONS", "RECORDS", "BY SERIES");
            for (Topic topic : Topic.values()) {
                Map<String, Long> bySeries = counts.getOrDefault(topic.topicName(), Map.of());
                long total = bySeries.values().stream().mapToLong(Long::longValue).sum();
                StringBuilder series = new StringBuilder();
                bySeries.forEach((k, v) -> series.append(series.length() == 0 ? "" : ", ").append(k).append('=').append(v));
                System.out.printf("%-16s %10d  %-9s %s%n", topic.topicName(), topic.partitions(),
                        noCounts ? "-" : String.valueOf(total), series.length() == 0 ? "-" : series);
            }
            return ExitCodes.OK;
        }
    }
}
