package io.rigscope.rig.selftest;

import io.rigscope.analyzer.decision.Episode;
import io.rigscope.analyzer.telemetry.TelemetryIndex;
import io.rigscope.model.topic.Topic;
import io.rigscope.model.wire.Gap;
import io.rigscope.model.wire.Marker;
import io.rigscope.model.wire.Sample;
import io.rigscope.model.wire.SampleBatch;
import io.rigscope.model.wire.WireRecord;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The PostgreSQL-restart guarantee, read from a {@link FaultSeries}: PostgreSQL was stopped (fast) in the middle of
 * repeat 3 and started again a few seconds later. The SUT answers every request again, and every collector that
 * reads PostgreSQL ({@code rig.db}, {@code rig.waits}) delivers records again, within {@link #RECONNECT_LIMIT_SEC}
 * of the server being back; each of those collectors published {@code GAP} markers that span the outage; and the
 * analyzer lists both streams as missing over the outage (for any episode it overlaps).
 *
 * @param downSec how long PostgreSQL was unreachable (stop asked to start done)
 * @param sutReconnectSec from PostgreSQL back to the end of the last failed request that started after it went
 *        down (0 when none failed after it was back)
 * @param sutAnsweredAfter the SUT answered at least one request 2xx after PostgreSQL was back
 * @param collectorReconnectSec per stream, from PostgreSQL back to the stream's first record after it
 * @param gapSpans per stream, true when its GAP markers cover the outage (from at most 2 s after the stop to the
 *        server being back)
 * @param missingOverOutage the streams the analyzer lists as missing over the outage
 * @param episodesOverOutage the report's episodes that overlap the outage
 */
record PgRestart(double downSec, double sutReconnectSec, boolean sutAnsweredAfter,
                        Map<String, Double> collectorReconnectSec, Map<String, Boolean> gapSpans,
                        List<String> missingOverOutage, List<Episode> episodesOverOutage) {

    /** The reconnect bound the guarantee sets, seconds. */
    public static final double RECONNECT_LIMIT_SEC = 5;
    /** The streams whose collectors read PostgreSQL. */
    static final List<Topic> PG_STREAMS = List.of(Topic.DB, Topic.WAITS);

    public PgRestart {
        collectorReconnectSec = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(collectorReconnectSec));
        gapSpans = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(gapSpans));
        missingOverOutage = List.copyOf(missingOverOutage);
        episodesOverOutage = List.copyOf(episodesOverOutage);
    }

    /** Reads the guarantee's figures from the series. */
    static PgRestart of(FaultSeries.Outcome o) {
        SeriesRecords topics = SeriesRecords.fromTopics(o.bootstrap(), o.series());
        long downUs = o.pgDownUs();
        long upUs = o.pgUpUs();
        long lastFailedT2 = Long.MIN_VALUE;
        boolean answered = false;
        for (SampleBatch b : topics.of(SampleBatch.class)) {
            for (Sample s : b.samples()) {
                boolean ok = s.status() >= 200 && s.status() < 300;
                if (!ok && s.t1() >= downUs) {
                    lastFailedT2 = Math.max(lastFailedT2, s.t2());
                }
                if (ok && s.t1() >= upUs) {
                    answered = true;
                }
            }
        }
        double sut = lastFailedT2 <= upUs ? 0 : (lastFailedT2 - upUs) / 1e6;
        Map<String, Double> reconnect = new LinkedHashMap<>();
        Map<String, Boolean> spans = new LinkedHashMap<>();
        List<Marker> gapMarkers = topics.of(Marker.class).stream().filter(m -> m.body() instanceof Gap).toList();
        List<Gap> gaps = gapMarkers.stream().map(m -> (Gap) m.body()).toList();
        for (Topic t : PG_STREAMS) {
            long first = topics.records().stream().filter(r -> r.topic() == t && r.ts() >= upUs)
                    .mapToLong(WireRecord::ts).min().orElse(Long.MAX_VALUE);
            reconnect.put(t.topicName(), first == Long.MAX_VALUE ? Double.POSITIVE_INFINITY : (first - upUs) / 1e6);
            long from = Long.MAX_VALUE;
            long to = Long.MIN_VALUE;
            for (Gap g : gaps) {
                if (t.topicName().equals(g.topic()) && g.startUs() != null && g.endUs() != null
                        && g.endUs() >= downUs) {
                    from = Math.min(from, g.startUs());
                    to = Math.max(to, g.endUs());
                }
            }
            spans.put(t.topicName(), from <= downUs + 2_000_000L && to >= upUs);
        }
        TelemetryIndex index = new TelemetryIndex();
        topics.records().forEach(index::accept);
        gapMarkers.forEach(index::acceptGap);
        long downSec = Math.floorDiv(downUs, 1_000_000L);
        long upSec = Math.floorDiv(upUs, 1_000_000L);
        List<String> missing = new ArrayList<>(index.lacking(downSec, upSec));
        missing.retainAll(PG_STREAMS.stream().map(Topic::topicName).toList());
        List<Episode> episodes = o.liveReport().episodes().stream()
                .filter(e -> e.startSec() <= upSec && e.endSec() >= downSec).toList();
        return new PgRestart((upUs - downUs) / 1e6, sut, answered, reconnect, spans, missing, episodes);
    }

    /** The largest reconnect time: the SUT's or any collector's, seconds. */
    public double reconnectSec() {
        double max = sutReconnectSec;
        for (double v : collectorReconnectSec.values()) {
            max = Math.max(max, v);
        }
        return max;
    }

    /** Reconnected in time, gaps marked, streams missing over the outage (and in every episode over it). */
    public boolean holds() {
        List<String> pg = PG_STREAMS.stream().map(Topic::topicName).toList();
        return sutAnsweredAfter && reconnectSec() <= RECONNECT_LIMIT_SEC && gapSpans.values().stream().allMatch(b -> b)
                && missingOverOutage.containsAll(pg)
                && episodesOverOutage.stream().allMatch(e -> e.missing().containsAll(pg));
    }
}
