package io.rigscope.generator;

import io.rigscope.generator.plan.LoopMode;
import io.rigscope.model.wire.ScheduleEnd;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a generator run did.
 *
 * @param series series id
 * @param rep repeat number
 * @param src generator id
 * @param mode open or closed loop; closed-loop figures are ceilings, never service levels
 * @param startEpochUs the schedule's start
 * @param scheduleElapsed from the start until the last request was due / started
 * @param elapsed from the start until the last request ended
 * @param scenarios per-scenario totals, in plan order
 * @param recordsProduced wire records the run produced
 * @param recordsPublished of those, handed to the sink (equals produced after a clean run)
 * @param samplesPublished samples inside the published SampleBatch records
 * @param recordsSpooled records that overflowed to the spool file on the way
 * @param processCpuPct process CPU over the run, percent of one core
 */
public record RunSummary(String series, int rep, String src, LoopMode mode, long startEpochUs, Duration scheduleElapsed,
                         Duration elapsed, List<ScenarioSummary> scenarios, long recordsProduced, long recordsPublished,
                         long samplesPublished, long recordsSpooled, double processCpuPct) {

    public RunSummary {
        scenarios = List.copyOf(scenarios);
    }

    /** The summary of one scenario. */
    public ScenarioSummary scenario(String name) {
        return scenarios.stream().filter(s -> s.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no scenario '" + name + "' in this run"));
    }

    /**
     * The schedule facts a generator's end marker carries: every component but the publishing counts (not final
     * when the marker is published).
     */
    public ScheduleEnd toScheduleEnd() {
        return new ScheduleEnd(mode.label(), series, rep, src, startEpochUs, elapsed.toMillis(),
                scenarios.stream().map(ScenarioSummary::toFacts).toList(), processCpuPct, null);
    }

    /** Plain data for {@code generate --json}: the end marker's facts and the publishing counts. */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("mode", mode.label());
        m.put("series", series);
        m.put("rep", rep);
        m.put("src", src);
        m.put("start_epoch_us", startEpochUs);
        m.put("elapsed_ms", elapsed.toMillis());
        List<Object> list = new ArrayList<>();
        scenarios.forEach(s -> list.add(s.toMap()));
        m.put("scenarios", list);
        m.put("records_produced", recordsProduced);
        m.put("records_published", recordsPublished);
        m.put("samples_published", samplesPublished);
        m.put("records_spooled", recordsSpooled);
        m.put("process_cpu_pct", processCpuPct);
        return m;
    }
}
