package io.rigscope.importers.evidence;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rigscope.model.codec.Decoded;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.model.topic.Topic;
import io.rigscope.model.wire.Marker;
import io.rigscope.model.wire.WireRecord;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * A rigscope wire file ({@code --out}) re-keyed to the series: every input topic's records as they were, with
 * {@code run} set to the series id. The analyzer's own output ({@code rig.verdicts}) and dead letters are not
 * evidence and are skipped (noted, not bad). It remembers the repeats the files carry and which of them carry their
 * own RECONCILIATION, so that a manifest's {@code database_gained} can count for the others.
 */
final class WireFile implements EvidenceReader {

    private static final Set<Topic> SKIPPED = Set.of(Topic.VERDICTS, Topic.DLQ);

    private final String series;
    private final WireCodec codec;
    private boolean repeatMarkers;
    /** Repeat -> its REPEAT_START's ts, for every repeat a file read carried. */
    private final Map<Integer, Long> repeatStartUs = new TreeMap<>();
    /** Repeat -> its REPEAT_END's ts. */
    private final Map<Integer, Long> repeatEndUs = new TreeMap<>();
    /** Repeats a file read carried a RECONCILIATION marker for. */
    private final Set<Integer> reconciled = new HashSet<>();

    WireFile(String series, WireCodec codec) {
        this.series = series;
        this.codec = codec;
    }

    /** True once a file read by this reader carried REPEAT_START markers (the series' repeats are its own). */
    boolean repeatMarkers() {
        return repeatMarkers;
    }

    /** The repeats the files carried (REPEAT_START), in order. */
    Set<Integer> repeats() {
        return repeatStartUs.keySet();
    }

    /** When the repeat ended (its REPEAT_END's ts, else its REPEAT_START's), epoch µs. */
    long repeatEndUs(int rep) {
        return repeatEndUs.getOrDefault(rep, repeatStartUs.getOrDefault(rep, 1L));
    }

    /** True when a file carried the repeat's own RECONCILIATION marker. */
    boolean reconciled(int rep) {
        return reconciled.contains(rep);
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
                if (ok.record() instanceof Marker m) {
                    if (m.kind() == Marker.Kind.REPEAT_START) {
                        repeatMarkers = true;
                        repeatStartUs.merge(m.rep(), m.ts(), Math::min);
                    } else if (m.kind() == Marker.Kind.REPEAT_END) {
                        repeatEndUs.merge(m.rep(), m.ts(), Math::max);
                    } else if (m.kind() == Marker.Kind.RECONCILIATION && m.rep() > 0) {
                        reconciled.add(m.rep());
                    }
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
