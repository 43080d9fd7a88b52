package io.rigscope.importers.evidence;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rigscope.model.codec.Decoded;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.model.topic.Topic;
import io.rigscope.model.wire.WireRecord;
import java.io.IOException;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * The DB sampler's JSONL to {@code rig.db}: one {@code rig.db} value a line (docs/wire-format.md), {@code run} set to
 * the series, {@code rep} 0 and {@code src} {@code db@sampler} where the line has none.
 */
final class DbSamplerFile implements EvidenceReader {

    private final String series;
    private final WireCodec codec;

    DbSamplerFile(String series, WireCodec codec) {
        this.series = series;
        this.codec = codec;
    }

    @Override
    public void read(Path file, Tally tally, Consumer<WireRecord> out) throws IOException {
        EvidenceText.eachJsonLine(file, tally, (n, node) -> {
            if (!(node instanceof ObjectNode value)) {
                tally.bad(n, "not a JSON object");
                return;
            }
            value.put("run", series);
            if (!value.has("rep")) {
                value.put("rep", 0);
            }
            if (!value.hasNonNull("src")) {
                value.put("src", "db@sampler");
            }
            Decoded d = codec.decode(Topic.DB, null, value, file.getFileName() + ":" + n);
            if (d instanceof Decoded.Ok ok) {
                out.accept(ok.record());
                tally.records++;
            } else {
                tally.bad(n, ((Decoded.Failed) d).deadLetter().reason());
            }
        });
    }
}
