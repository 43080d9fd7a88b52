package io.rigscope.rig;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.infra.kafka.EmbeddedKafka;
import io.rigscope.infra.kafka.TopicAdmin;
import io.rigscope.infra.wire.WirePublisher;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.model.codec.WireLine;
import io.rigscope.model.wire.WireExamples;
import io.rigscope.model.wire.WireRecord;
import io.rigscope.rig.cli.RigscopeCommand;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TailCommandTest {

    @Test
    void tailFromTheBeginningPrintsEachRecordAsAWireLine(@TempDir Path dir) {
        WireCodec codec = new WireCodec();
        try (var kafka = EmbeddedKafka.start(dir, 0)) {
            try (var admin = new TopicAdmin(kafka.bootstrap());
                 var publisher = new WirePublisher(kafka.bootstrap(), codec, WirePublisher.Options.defaults())) {
                admin.ensureTopics();
                WireExamples.all().forEach(publisher::publish);
                publisher.flush();
            }
            var out = new ByteArrayOutputStream();
            PrintStream old = System.out;
            int exit;
            try {
                System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
                exit = RigscopeCommand.commandLine().execute("tail", "rig.ledger", "--bootstrap", kafka.bootstrap(),
                        "--from-beginning", "--no-follow", "--json", "--series", "s-2026-11-30a");
            } finally {
                System.setOut(old);
            }
            assertThat(exit).isZero();
            WireRecord ledger = WireExamples.all().get(2);
            assertThat(out.toString(StandardCharsets.UTF_8).strip())
                    .isEqualTo(WireLine.of(codec, ledger).render(codec));
        }
    }
}
