package io.rigscope.rig.demo;

import io.rigscope.rig.series.SeriesPlan;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The series {@code rigscope demo} runs: a short ladder and a short sustained series with the read probe, sized
 * for a 2-core machine that also runs the broker, the database and the SUT. {@code --quick} shortens
 * everything to under a minute; {@code --provoke hot-row} climbs a ladder into the hot-row wall.
 */
public final class DemoPlan {

    /** The thresholds every demo repeat is held to (k6 syntax). */
    public static final Map<String, Object> THRESHOLDS = Map.of(
            "http_req_duration", List.of("p(99)<500"),
            "http_req_failed", List.of("rate<0.01"));

    private DemoPlan() {
    }

    /** The demo series against {@code target}. */
    public static SeriesPlan of(String series, URI target, String apiKey, boolean quick, boolean hotRow) {
        Map<String, Object> analyzer = new LinkedHashMap<>();
        analyzer.put("thresholds", THRESHOLDS);
        analyzer.put("probe_p99_ms", 500L);
        SeriesPlan.Load load = new SeriesPlan.Load(hotRow ? 1 : 10, "api_calls", "cust-%d", 1000, 64,
                Duration.ofSeconds(5), 5);
        if (hotRow) {
            // One event a request, the key touched in every transaction: the rate climbs into the row lock.
            return new SeriesPlan(series, target, apiKey, load,
                    new SeriesPlan.Ladder(quick ? List.of(200.0, 800.0) : List.of(200.0, 400.0, 800.0, 1600.0), 1,
                            Duration.ofSeconds(quick ? 6 : 15)),
                    new SeriesPlan.Sustained(400, quick ? 1 : 2, Duration.ofSeconds(quick ? 12 : 30),
                            Duration.ofSeconds(2)),
                    null, null, analyzer, null);
        }
        if (quick) {
            return new SeriesPlan(series, target, apiKey, load,
                    new SeriesPlan.Ladder(List.of(50.0, 100.0), 1, Duration.ofSeconds(4)),
                    new SeriesPlan.Sustained(100, 2, Duration.ofSeconds(11), Duration.ofSeconds(1)),
                    new SeriesPlan.Ceiling(8, Duration.ofSeconds(4)),
                    new SeriesPlan.DenominatorSpec(4, Duration.ofSeconds(4)), analyzer, null);
        }
        return new SeriesPlan(series, target, apiKey, load,
                new SeriesPlan.Ladder(List.of(50.0, 100.0, 200.0), 1, Duration.ofSeconds(15)),
                new SeriesPlan.Sustained(100, 3, Duration.ofSeconds(30), Duration.ofSeconds(5)),
                new SeriesPlan.Ceiling(8, Duration.ofSeconds(10)),
                new SeriesPlan.DenominatorSpec(4, Duration.ofSeconds(10)), analyzer, null);
    }
}
