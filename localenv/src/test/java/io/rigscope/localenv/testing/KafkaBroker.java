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
 * A JUnit 5 fixture: a real embedded KRaft broker ({@link EmbeddedKafka}) on 127.0.0.1 with every rigscope topic
 * ensured ({@link TopicAdmin#ensureTopics()}). Register it on a static field and read its address there:
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
        return now.kafka().bootstrap();
    }

    /** The JVM's shared broker and its temporary home directory. */
    private record Running(EmbeddedKafka kafka, Path dir) implements AutoCloseable {

        static Running start() {
            Path dir;
            try {
                dir = Files.createTempDirectory("rigscope-kafka-");
            } catch (IOException e) {
                throw new UncheckedIOException("cannot create a temp directory for the test broker", e);
            }
            EmbeddedKafka kafka = EmbeddedKafka.start(dir, 0);
            try (TopicAdmin admin = new TopicAdmin(kafka.bootstrap())) {
                admin.ensureTopics();
            } catch (RuntimeException e) {
                kafka.close();
                throw e;
            }
            return new Running(kafka, dir);
        }

        @Override
        public void close() throws IOException {
            kafka.close();
            try (Stream<Path> walk = Files.walk(dir)) {
                walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
