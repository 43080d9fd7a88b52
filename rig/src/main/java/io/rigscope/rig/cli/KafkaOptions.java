package io.rigscope.rig.cli;

import io.rigscope.localenv.kafka.KafkaEndpoint;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** Where Kafka is: {@code --bootstrap} for an existing cluster, else the embedded broker in {@code --data-dir}. */
public final class KafkaOptions {

    @Option(names = "--bootstrap", paramLabel = "HOST:PORT",
            description = "Use this Kafka cluster (bootstrap.servers) and start no broker.")
    String bootstrap;

    @Option(names = "--data-dir", paramLabel = "DIR",
            description = "The embedded broker's data directory, kept between runs (default: ~/.rigscope/kafka).")
    Path dataDir;

    /**
     * Resolves the endpoint, starting the embedded broker if needed; prints where Kafka is (and where a started
     * broker logs) on stderr.
     */
    public KafkaEndpoint open() {
        if (bootstrap != null && !bootstrap.matches("[^,\\s:]+:\\d+(,[^,\\s:]+:\\d+)*")) {
            throw new UsageException("--bootstrap '" + bootstrap + "' is not host:port[,host:port...]");
        }
        long startNs = System.nanoTime();
        KafkaEndpoint endpoint = KafkaEndpoint.resolve(bootstrap, dataDir);
        if (endpoint.ownsBroker()) {
            System.err.printf("kafka: started %s in %.1f s (log %s)%n", endpoint.description(),
                    (System.nanoTime() - startNs) / 1e9, endpoint.brokerLog().orElseThrow());
        } else {
            System.err.println("kafka: using " + endpoint.description());
        }
        return endpoint;
    }
}
