package io.rigscope.localenv.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.logging.Logger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@Tag("it")
class EmbeddedKafkaTest {

    @Test
    void kafkasOwnLoggingGoesToBrokerLogInTheDataDirectoryWhileTheBrokerRuns(@TempDir Path dir) throws Exception {
        Logger kafkaLogger = Logger.getLogger("kafka");
        boolean useParentBefore = kafkaLogger.getUseParentHandlers();
        Path log;
        try (EmbeddedKafka kafka = EmbeddedKafka.start(dir, 0)) {
            log = kafka.logFile();
            assertThat(log).isEqualTo(dir.resolve("broker.log"));
            assertThat(kafkaLogger.getUseParentHandlers()).as("kafka's loggers reach no console handler").isFalse();
        }
        String text = Files.readString(log);
        assertThat(text).contains("rigscope: starting the embedded broker in " + dir)
                .contains("INFO kafka.server.");
        assertThat(kafkaLogger.getUseParentHandlers()).as("put back on close").isEqualTo(useParentBefore);
    }

    @Test
    void aBrokerThatCannotStartSaysWhyOnOneLineNamingItsLog(@TempDir Path dir) throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            assertThatThrownBy(() -> EmbeddedKafka.start(dir, taken.getLocalPort()))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageStartingWith("the embedded Kafka broker did not start in " + dir + ": ")
                    .hasMessageContaining(String.valueOf(taken.getLocalPort()))
                    .hasMessageContaining("Address already in use")
                    .hasMessageEndingWith("(log " + dir.resolve("broker.log") + ")")
                    .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
        }
        String log = Files.readString(dir.resolve("broker.log"));
        assertThat(log).contains("rigscope: the embedded broker did not start");
        assertThat(log.lines().filter(l -> l.matches(".* SEVERE (kafka|org\\.apache\\.kafka)\\..*")))
                .as("Kafka's own errors are in the file").isNotEmpty();
    }

    @Test
    void aCauseChainReadsAsOneLineWithItsRoot() {
        var e = new RuntimeException("outer", new IllegalArgumentException("line one\n  line two"));
        assertThat(EmbeddedKafka.causeInOneLine(e))
                .isEqualTo("RuntimeException: outer; cause: IllegalArgumentException: line one line two");
    }

    @Test
    void theCauseShownIsTheOneNearestTheRootThatSaysMoreThanTheRoot() {
        var root = new java.net.BindException("Address already in use");
        var kafka = new IllegalStateException("Socket server failed to bind to 127.0.0.1:9: Address already in use.", root);
        var wrapper = new RuntimeException("java.util.concurrent.CompletionException: " + kafka, kafka);
        var e = new RuntimeException("Received a fatal error", wrapper);
        assertThat(EmbeddedKafka.causeInOneLine(e)).isEqualTo("RuntimeException: Received a fatal error; "
                + "cause: IllegalStateException: Socket server failed to bind to 127.0.0.1:9: Address already in use.");
    }
}
