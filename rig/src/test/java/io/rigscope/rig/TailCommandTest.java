package io.rigscope.rig;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.localenv.testing.KafkaBroker;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.model.codec.WireLine;
import io.rigscope.model.wire.WireExamples;
import io.rigscope.model.wire.WireRecord;
import io.rigscope.rig.cli.RigscopeCommand;
import io.rigscope.wire.WirePublisher;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

@Tag("it")
class TailCommandTest {

    @RegisterExtension
    static final KafkaBroker kafka = new KafkaBroker();

    @Test
    void tailFromTheBeginningPrintsEachRecordAsAWireLine() {
        WireCodec codec = new WireCodec();
        try (var publisher = new WirePublisher(kafka.bootstrap(), codec, WirePublisher.Options.defaults())) {
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
