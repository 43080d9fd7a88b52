package io.rigscope.rig.rescan;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rigscope.model.codec.Decoded;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.model.topic.Topic;
import io.rigscope.model.wire.Marker;
import io.rigscope.model.wire.WireRecord;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Set;
import java.util.function.Consumer;

/**
 * A rigscope wire file ({@code --out}) re-keyed to the series: every input topic's records as they were, with
 * {@code run} set to the series id. The analyzer's own output ({@code rig.verdicts}) and dead letters are not
 * evidence and are skipped (noted, not bad).
 */
final class WireFile implements EvidenceReader {

    private static final Set<Topic> SKIPPED = Set.of(Topic.VERDICTS, Topic.DLQ);

    private final String series;
    private final WireCodec codec;
    private boolean repeatMarkers;

    WireFile(String series, WireCodec codec) {
        this.series = series;
        this.codec = codec;
    }

    /** True once a file read by this reader carried REPEAT_START markers (the series' repeats are its own). */
    boolean repeatMarkers() {
        return repeatMarkers;
    }

    @Override
    public void read(Path file, Tally tally, Consumer<WireRecord> out) throws IOException {
        long[] skipped = {0};
        EvidenceText.eachJsonLine(file, tally, (n, node) -> {
            var topic = Topic.byName(node.path("topic").asText(""));
            if (topic.isEmpty() || !node.path("value").isObject()) {
                tally.bad(n, "not a wire line (topic '" + node.path("topic").asText("") + "')");
                return;
            }
            if (SKIPPED.contains(topic.get())) {
                skipped[0]++;
                return;
            }
            ObjectNode value = (ObjectNode) node.path("value");
            value.put("run", series);
            Decoded d = codec.decode(topic.get(), null, value, file.getFileName() + ":" + n);
            if (d instanceof Decoded.Ok ok) {
                if (ok.record() instanceof Marker m && m.kind() == Marker.Kind.REPEAT_START) {
                    repeatMarkers = true;
                }
                out.accept(ok.record());
                tally.records++;
            } else {
                tally.bad(n, ((Decoded.Failed) d).deadLetter().reason());
            }
        });
        if (skipped[0] > 0) {
            tally.note(skipped[0] + " verdict/dead-letter line(s) skipped: analyzer output, not evidence");
        }
    }
}
