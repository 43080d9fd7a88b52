package io.rigscope.rig.cli;

import static io.rigscope.rig.cli.RigscopeRun.rigscope;
import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.localenv.testing.KafkaBroker;
import io.rigscope.rig.options.ExitCodes;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@code --kafka-property} and {@code --kafka-config} reach the clients, and bad ones exit 2 naming them. */
@Tag("it")
class KafkaClientPropertiesTest {

    @RegisterExtension
    static final KafkaBroker kafka = new KafkaBroker();

    @Test
    void aClientPropertyReachesTheClientsAndCanBreakThem(@TempDir Path dir) throws Exception {
        RigscopeRun plain = rigscope("topics", "--bootstrap", kafka.bootstrap(), "--kafka-property",
                "request.timeout.ms=5000");
        assertThat(plain.exit()).as(plain.err()).isEqualTo(ExitCodes.OK);
        assertThat(plain.err()).contains("kafka: client properties request.timeout.ms");

        // TLS towards the broker's PLAINTEXT listener: the admin client cannot connect, within the file's timeout
        Path file = dir.resolve("client.properties");
        Files.writeString(file, "security.protocol=SSL\ndefault.api.timeout.ms=3000\nrequest.timeout.ms=2000\n");
        RigscopeRun tls = rigscope("topics", "--bootstrap", kafka.bootstrap(), "--kafka-config", file.toString());
        assertThat(tls.exit()).isNotIn(ExitCodes.OK, ExitCodes.USAGE);
        assertThat(tls.err()).contains("kafka: client properties default.api.timeout.ms, request.timeout.ms, "
                + "security.protocol");
    }

    @Test
    void aPropertyKafkaDoesNotKnowOrRefusesOrRigscopeOwnsExitsTwoNamingIt(@TempDir Path dir) throws Exception {
        RigscopeRun unknown = rigscope("topics", "--bootstrap", kafka.bootstrap(), "--kafka-property",
                "no.such.setting=1");
        assertThat(unknown.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(unknown.err()).contains("no.such.setting is not a Kafka producer, consumer or admin client property");

        RigscopeRun badValue = rigscope("tail", "rig.markers", "--bootstrap", kafka.bootstrap(), "--kafka-property",
                "request.timeout.ms=soon");
        assertThat(badValue.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(badValue.err()).contains("request.timeout.ms").contains("soon");

        RigscopeRun owned = rigscope("topics", "--bootstrap", kafka.bootstrap(), "--kafka-property",
                "bootstrap.servers=elsewhere:9092");
        assertThat(owned.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(owned.err()).contains("bootstrap.servers is set by rigscope; use --bootstrap");

        RigscopeRun missing = rigscope("topics", "--bootstrap", kafka.bootstrap(), "--kafka-config",
                dir.resolve("absent.properties").toString());
        assertThat(missing.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(missing.err()).contains("--kafka-config").contains("absent.properties");
    }

    @Test
    void theDeliveryLimitIsOneSettingAndABadValueExitsTwoNamingTheKey(@TempDir Path dir) throws Exception {
        RigscopeRun shorter = rigscope("topics", "--bootstrap", kafka.bootstrap(), "--kafka-delivery-timeout", "10s");
        assertThat(shorter.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(shorter.err()).contains("--kafka-delivery-timeout 10s is shorter than the producer's "
                + "request.timeout.ms + linger.ms (30005 ms)");

        RigscopeRun notADuration = rigscope("topics", "--bootstrap", kafka.bootstrap(), "--kafka-delivery-timeout",
                "soon");
        assertThat(notADuration.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(notADuration.err()).contains("--kafka-delivery-timeout");

        RigscopeRun asProperty = rigscope("topics", "--bootstrap", kafka.bootstrap(), "--kafka-property",
                "delivery.timeout.ms=60000");
        assertThat(asProperty.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(asProperty.err()).contains("delivery.timeout.ms is rigscope's delivery limit: use "
                + "--kafka-delivery-timeout (or kafka.delivery_timeout in a series file)");

        RigscopeRun stated = rigscope("topics", "--bootstrap", kafka.bootstrap(), "--kafka-delivery-timeout", "5s",
                "--kafka-property", "request.timeout.ms=2000");
        assertThat(stated.exit()).as(stated.err()).isEqualTo(ExitCodes.OK);
        assertThat(stated.err()).contains("kafka: delivery limit 5s (--kafka-delivery-timeout)");

        Path config = dir.resolve("series.yaml");
        String series = "target: {url: 'http://127.0.0.1:1', api_key: k}\n"
                + "sustained: {rate: 20, repeats: 1, duration: 1s, cooldown: 0s}\n"
                + "load: {probe_rate: 0}\n";
        Files.writeString(config, series + "kafka: {delivery_timeout: 5s}\n");
        RigscopeRun fromFile = rigscope("run", "--config", config.toString(), "--allow", "--bootstrap",
                kafka.bootstrap());
        assertThat(fromFile.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(fromFile.err()).contains(config + ": kafka.delivery_timeout 5s is shorter than the producer's "
                + "request.timeout.ms + linger.ms");
        Files.writeString(config, series + "kafka: {delivery_timeout: later}\n");
        RigscopeRun badInFile = rigscope("run", "--config", config.toString(), "--allow", "--bootstrap",
                kafka.bootstrap());
        assertThat(badInFile.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(badInFile.err()).contains(config + ": kafka.delivery_timeout");
    }
}
