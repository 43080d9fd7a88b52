package io.rigscope.localenv.testing;

import io.rigscope.localenv.kafka.EmbeddedKafka;
import io.rigscope.wire.kafka.TopicAdmin;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A JUnit 5 fixture: a real Kafka broker with every rigscope topic ensured ({@link TopicAdmin#ensureTopics()}): the
 * embedded KRaft broker ({@link EmbeddedKafka}) on 127.0.0.1, or, with {@code RIGSCOPE_TEST_INFRA=containers} where a
 * Docker engine answers, Testcontainers' Kafka on the {@code apache/kafka} image ({@link TestInfra}). Register it on a static field and read its address there:
 *
 * <pre>{@code
 * @RegisterExtension
 * static final KafkaBroker kafka = new KafkaBroker();
 * ...
 * new WirePublisher(kafka.bootstrap(), codec, WirePublisher.Options.defaults())
 * }</pre>
 *
 * <p>Lifetime: one broker per test JVM (surefire runs one JVM per module). The first class that registers the
 * fixture starts it before its own {@code @BeforeAll} methods run; every later class in the JVM gets the same
 * broker; it stops, and its directory is deleted, when the JUnit engine finishes (it lives in the root
 * {@link ExtensionContext.Store} as an {@link AutoCloseable}). The field must be static: on an instance field
 * JUnit does not call {@code beforeAll}, and {@link #bootstrap()} fails.
 *
 * <p>Isolation: the broker is shared and keeps every record (retention -1), so a test must publish under a series
 * id no other test in its module uses, read by series, and never stop or reconfigure the broker. A test that needs
 * a fresh or bare broker (no topics yet), or stops it, starts its own {@link EmbeddedKafka}.
 */
public final class KafkaBroker implements BeforeAllCallback {

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(KafkaBroker.class);

    private volatile Running running;

    @Override
    public void beforeAll(ExtensionContext context) {
        running = context.getRoot().getStore(NAMESPACE)
                .getOrComputeIfAbsent(Running.class, key -> Running.start(), Running.class);
    }

    /** {@code 127.0.0.1:port}, for {@code bootstrap.servers} and {@code --bootstrap}. */
    public String bootstrap() {
        Running now = running;
        if (now == null) {
            throw new IllegalStateException("the KafkaBroker fixture has not started: register it with "
                    + "@RegisterExtension on a static field and use it from @BeforeAll or test methods");
        }
        return now.bootstrap();
    }

    /** The JVM's shared broker: embedded (with its temporary home directory) or a container. */
    private record Running(String bootstrap, AutoCloseable broker, Path dir) implements AutoCloseable {

        static Running start() {
            return TestInfra.containers() ? container() : embedded();
        }

        private static Running embedded() {
            Path dir;
            try {
                dir = Files.createTempDirectory("rigscope-kafka-");
            } catch (IOException e) {
                throw new UncheckedIOException("cannot create a temp directory for the test broker", e);
            }
            EmbeddedKafka kafka = EmbeddedKafka.start(dir, 0);
            return withTopics(new Running(kafka.bootstrap(), kafka, dir));
        }

        /** Testcontainers' Kafka module on the apache/kafka image ({@code rigscope.test.kafka.image} to change it). */
        private static Running container() {
            String image = System.getProperty("rigscope.test.kafka.image", "apache/kafka:4.0.0");
            var kafka = new org.testcontainers.kafka.KafkaContainer(
                    org.testcontainers.utility.DockerImageName.parse(image));
            kafka.start();
            String bootstrap = kafka.getBootstrapServers().replaceFirst("^[A-Z_]+://", "");
            return withTopics(new Running(bootstrap, kafka::stop, null));
        }

        private static Running withTopics(Running running) {
            try (TopicAdmin admin = new TopicAdmin(running.bootstrap())) {
                admin.ensureTopics();
            } catch (RuntimeException e) {
                try {
                    running.close();
                } catch (IOException ignored) {
                    // the first failure is the one to report
                }
                throw e;
            }
            return running;
        }

        @Override
        public void close() throws IOException {
            try {
                broker.close();
            } catch (IOException | RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IOException(e);
            }
            if (dir != null) {
                try (Stream<Path> walk = Files.walk(dir)) {
                    walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                }
            }
        }
    }
}
