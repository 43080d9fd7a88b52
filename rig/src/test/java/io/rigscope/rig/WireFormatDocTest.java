package io.rigscope.rig;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.model.codec.WireCodec;
import io.rigscope.model.codec.WireLine;
import io.rigscope.model.topic.Topic;
import io.rigscope.model.wire.WireExamples;
import io.rigscope.model.wire.WireRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** docs/wire-format.md shows one example per topic; they must be exactly what the code writes. */
class WireFormatDocTest {

    @Test
    void everyTopicHasItsExampleLineInTheWireFormatPage() throws Exception {
        String doc = Files.readString(Path.of("..", "docs", "wire-format.md"));
        WireCodec codec = new WireCodec();
        for (WireRecord record : WireExamples.all()) {
            assertThat(doc).as("example for " + record.topic().topicName())
                    .contains(WireLine.of(codec, record).render(codec));
        }
        for (Topic topic : Topic.values()) {
            assertThat(doc).contains("### `" + topic.topicName() + "`");
        }
    }
}
