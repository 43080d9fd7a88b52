package io.rigscope.analyzer.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.rigscope.model.codec.Decoded;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.model.topic.Topic;
import io.rigscope.model.wire.Gap;
import io.rigscope.model.wire.Marker;
import io.rigscope.model.wire.MarkerBody;
import io.rigscope.model.wire.PhaseEnd;
import io.rigscope.model.wire.PhaseStart;
import io.rigscope.model.wire.Reconciliation;
import io.rigscope.model.wire.RepeatEnd;
import io.rigscope.model.wire.RepeatStart;
import io.rigscope.model.wire.ScheduleEnd;
import io.rigscope.model.wire.SeriesEnd;
import io.rigscope.model.wire.SeriesStart;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every marker of every recorded and provoked series (written by the rig before markers were typed) decodes to a
 * typed body and re-encodes to its own bytes, unless its body keeps keys it does not know (older writers' figures
 * nothing reads): then to the same JSON with those keys after the known ones.
 */
class RecordedMarkersTest {

    private final WireCodec codec = new WireCodec();

    @ParameterizedTest
    @ValueSource(strings = {"recorded/demo-quick.jsonl.gz", "recorded/hot-row.jsonl.gz",
            "provoked/generator-pause.jsonl.gz", "provoked/clean-loaded-host.jsonl.gz",
            "provoked/vacuum-storm-gp3.jsonl.gz", "provoked/wal-pool.jsonl.gz", "provoked/hot-row.jsonl.gz",
            "provoked/vacuum-storm.jsonl.gz", "provoked/edge-second.jsonl.gz", "provoked/cpu-starved.jsonl.gz",
            "provoked/clean.jsonl.gz"})
    void everyRecordedMarkerReadsTypedAndWritesBackTheSameJson(String resource) throws IOException {
        int markers = 0;
        int sameBytes = 0;
        List<String> differ = new ArrayList<>();
        for (String line : lines(resource)) {
            if (!line.startsWith("{\"topic\":\"rig.markers\"")) {
                continue;
            }
            markers++;
            String value = line.substring(line.indexOf("\"value\":") + "\"value\":".length(), line.length() - 1);
            Decoded d = codec.decode(Topic.MARKERS, null, value.getBytes(StandardCharsets.UTF_8), resource);
            assertThat(d).as(value).isInstanceOf(Decoded.Ok.class);
            Marker m = (Marker) ((Decoded.Ok) d).record();
            String again = new String(codec.encode(m), StandardCharsets.UTF_8);
            JsonNode before = codec.json().readTree(value);
            assertThat(codec.json().readTree(again)).as(value).isEqualTo(before);
            if (again.equals(value)) {
                sameBytes++;
            } else {
                assertThat(keepsUnknownKeys(m.body())).as("only a body with unknown keys moves them: " + value)
                        .isTrue();
                differ.add(m.kind().toString());
            }
        }
        assertThat(markers).isPositive();
        System.out.printf("%s: %d markers, %d byte-identical, re-ordered (unknown keys last): %s%n", resource,
                markers, sameBytes, differ);
    }

    private static boolean keepsUnknownKeys(MarkerBody body) {
        Map<String, Object> other = body instanceof SeriesStart b ? b.other()
                : body instanceof SeriesEnd b ? b.other()
                : body instanceof RepeatStart b ? b.other()
                : body instanceof RepeatEnd b ? b.other()
                : body instanceof PhaseStart b ? b.other()
                : body instanceof PhaseEnd b ? b.other()
                : body instanceof Reconciliation b ? b.other()
                : body instanceof Gap b ? b.other()
                : Map.of();
        ScheduleEnd schedule = body instanceof RepeatEnd b ? b.schedule()
                : body instanceof SeriesEnd b ? b.schedule()
                : body instanceof PhaseEnd b ? b.schedule()
                : null;
        boolean scenarioOther = schedule != null && schedule.scenarios() != null
                && schedule.scenarios().stream().anyMatch(s -> !s.other().isEmpty());
        return !other.isEmpty() || scenarioOther;
    }

    private static List<String> lines(String resource) throws IOException {
        List<String> out = new ArrayList<>();
        try (InputStream in = RecordedMarkersTest.class.getClassLoader().getResourceAsStream(resource)) {
            assertThat(in).as(resource).isNotNull();
            try (BufferedReader r = new BufferedReader(new InputStreamReader(new GZIPInputStream(in),
                    StandardCharsets.UTF_8))) {
                for (String l = r.readLine(); l != null; l = r.readLine()) {
                    out.add(l);
                }
            }
        }
        return out;
    }
}
