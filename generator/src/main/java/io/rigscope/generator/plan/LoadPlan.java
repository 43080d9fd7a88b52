package io.rigscope.generator.plan;

import io.rigscope.generator.schedule.Share;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What one generator run offers: its scenarios (run at once), for how long, in which mode, and under which
 * series, repeat and source id its records are published. A definition only; running it is
 * {@code Generator.run(plan)}.
 *
 * @param series series id (the Kafka key of every record)
 * @param rep repeat number, 0 outside a repeat
 * @param src this generator's id, e.g. {@code gen-1}
 * @param phase phase name for markers ({@code ladder}, {@code sustained}, ...), or null
 * @param mode open or closed loop
 * @param duration how long requests are started; the run then waits for the ones in flight
 * @param scenarios one or more, unique names
 * @param lifecycle which start/end markers the generator writes
 * @param share this generator's part of every scenario's schedule when several offer it together
 *              ({@link Share#WHOLE}: alone)
 */
public record LoadPlan(String series, int rep, String src, String phase, LoopMode mode, Duration duration,
                       List<Scenario> scenarios, Lifecycle lifecycle, Share share) {

    /** Which start/end markers the generator writes around the run (the CONFIG marker is always written). */
    public enum Lifecycle {
        /** SERIES_START / SERIES_END: a standalone {@code rigscope generate}. */
        SERIES,
        /** REPEAT_START / REPEAT_END: one repeat of an orchestrated series. */
        REPEAT,
        /** PHASE_START / PHASE_END. */
        PHASE,
        /** None: the caller writes its own. */
        NONE
    }

    public LoadPlan {
        if (series == null || series.isBlank()) {
            throw new IllegalArgumentException("series id is missing");
        }
        if (rep < 0) {
            throw new IllegalArgumentException("rep must be >= 0, was " + rep);
        }
        if (src == null || src.isBlank()) {
            throw new IllegalArgumentException("src (generator id) is missing");
        }
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(duration, "duration");
        if (duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException("duration must be > 0, was " + duration);
        }
        scenarios = List.copyOf(Objects.requireNonNull(scenarios, "scenarios"));
        if (scenarios.isEmpty()) {
            throw new IllegalArgumentException("a load plan needs at least one scenario");
        }
        var names = new HashSet<String>();
        for (Scenario s : scenarios) {
            if (!names.add(s.name())) {
                throw new IllegalArgumentException("scenario name '" + s.name() + "' is used twice");
            }
        }
        lifecycle = lifecycle == null ? (rep == 0 ? Lifecycle.SERIES : Lifecycle.REPEAT) : lifecycle;
        share = share == null ? Share.WHOLE : share;
    }

    /** A plan for one generator alone. */
    public LoadPlan(String series, int rep, String src, String phase, LoopMode mode, Duration duration,
                    List<Scenario> scenarios, Lifecycle lifecycle) {
        this(series, rep, src, phase, mode, duration, scenarios, lifecycle, Share.WHOLE);
    }

    /** This plan as share {@code share} of a schedule several generators offer together. */
    public LoadPlan withShare(Share share) {
        return new LoadPlan(series, rep, src, phase, mode, duration, scenarios, lifecycle, share);
    }

    /** The plan as plain config data (the CONFIG marker's {@code data}); header secrets masked. */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("mode", mode.label());
        m.put("series", series);
        m.put("rep", rep);
        m.put("src", src);
        m.put("phase", phase);
        m.put("duration_ms", duration.toMillis());
        if (share.n() > 1) {
            m.put("share", share.toString());
        }
        List<Object> list = new ArrayList<>();
        for (Scenario s : scenarios) {
            list.add(s.toMap());
        }
        m.put("scenarios", list);
        return m;
    }

    /** The sum of the scenarios' caps: the largest number of requests that can be in flight at once. */
    public int totalMaxInFlight() {
        return scenarios.stream().mapToInt(Scenario::maxInFlight).sum();
    }
}
