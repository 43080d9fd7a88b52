package io.rigscope.analyzer.decision;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.rigscope.model.wire.Verdict;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The one place decisions become JSON: a {@link Decision} as its {@code rig.verdicts} record, and the series
 * report as a file. Both go through the same Jackson views ({@link WireView} records), so the report file, the
 * SERIES verdict's body and every other view agree field for field. Thread-safe.
 */
public final class DecisionCodec {

    /** The {@code src} of every verdict. */
    public static final String SRC = "analyzer";

    private static final ObjectMapper JSON = JsonMapper.builder().build();
    private static final ObjectMapper PRETTY = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();
    private static final TypeReference<LinkedHashMap<String, Object>> MAP = new TypeReference<>() { };

    private DecisionCodec() {
    }

    /** The decision as the verdict published on {@code rig.verdicts}; its body is the decision's JSON view. */
    public static Verdict toVerdict(Decision d) {
        return new Verdict(d.series(), d.rep(), SRC, d.tsUs(), d.kind(), d.scenario(), body(d));
    }

    /** The verdict body of a decision (docs/wire-format.md lists the keys of each kind). */
    public static Map<String, Object> body(Decision d) {
        if (d instanceof Decision.Second s) {
            Map<String, Object> body = view(s.second());
            if (s.provisional()) {
                body.put("provisional", true);
            }
            if (s.serverTiming() != null) {
                body.put("server_timing", view(s.serverTiming().figures()));
                body.put("slowest_timed", slowestTimed(s.serverTiming().slowest()));
            }
            return body;
        }
        if (d instanceof Decision.Freeze f) {
            Map<String, Object> body = view(f.second());
            body.put("rule", f.rule());
            return body;
        }
        if (d instanceof Decision.TailWindow w) {
            return view(w.window());
        }
        if (d instanceof Decision.EpisodeFound e) {
            Map<String, Object> body = view(e.episode());
            if (e.provisional()) {
                body.put("provisional", true);
            }
            return body;
        }
        if (d instanceof Decision.Repeat r) {
            return view(r.summary());
        }
        if (d instanceof Decision.CeilingFound c) {
            return view(c.ceiling());
        }
        if (d instanceof Decision.Stop s) {
            return view(s.abort());
        }
        return view(((Decision.Series) d).report());
    }

    /**
     * The second's slowest request that carried Server-Timing: {@code service_ms} (measured by the generator) and
     * {@code timing_ms}, each metric the service named with its duration, in the header's order.
     */
    private static Map<String, Object> slowestTimed(Decision.Worst w) {
        Map<String, Double> timing = new LinkedHashMap<>();
        for (int i = 0; i < w.timing().size(); i++) {
            timing.merge(w.timing().name(i), w.timing().durUs(i) / 1000.0, Double::sum); // a name given twice: summed
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("service_ms", w.serviceUs() / 1000.0);
        out.put("timing_ms", timing);
        return out;
    }

    /** The report file: pretty-printed JSON, UTF-8, with a final newline; the same input gives the same bytes. */
    public static byte[] reportJson(SeriesReport report) {
        try {
            return (PRETTY.writeValueAsString(report) + "\n").getBytes(StandardCharsets.UTF_8);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot render the report of " + report.series() + " as JSON", e);
        }
    }

    private static Map<String, Object> view(Object value) {
        return JSON.convertValue(value, MAP);
    }
}
