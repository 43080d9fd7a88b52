package io.rigscope.rig.experiment;

import com.fasterxml.jackson.databind.JsonNode;
import io.rigscope.analyzer.compare.Comparison;
import io.rigscope.analyzer.compare.SeriesFigures;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * The arms of an experiment put together: each side's arms as one {@link SeriesFigures} (one judged repeat per
 * arm, numbered by the arm: "A rep 2" is the second control arm), compared by {@link Comparison} as
 * {@code rigscope compare} does, with the treatment's settings declared; and the JSON of
 * {@code experiment --json}: {@code {control: {series, freeze_seconds_by_cause, episodes, p50_ms, p99_ms, ...},
 * treatment: {...}, compare: {verdict, p_value, ...}}}.
 *
 * @param control the control arms, in order
 * @param treatment the treatment arms, in order
 * @param treatmentSettings the settings the treatment arms ran with
 * @param controlSettings the same settings as the control arms had them
 * @param lever where {@code --treatment lever} took them from, or null
 * @param comparison compare's result on the two sides
 * @param armsDiffer what differs between an arm's environment and its side's first arm's ({@code A2: key: x -> y})
 */
public record ExperimentResult(List<ArmRun> control, List<ArmRun> treatment, Map<String, String> treatmentSettings,
                               Map<String, String> controlSettings, LeverChoice lever, Comparison comparison,
                               List<String> armsDiffer) {

    /**
     * One arm as it ran.
     *
     * @param arm which
     * @param series its series id
     * @param report its report (the JSON of {@code --report-json})
     * @param wireFile where its records were kept, or null
     */
    public record ArmRun(ArmOrder.Arm arm, String series, JsonNode report, String wireFile) {
        public ArmRun {
            Objects.requireNonNull(arm, "arm");
            Objects.requireNonNull(series, "series");
            Objects.requireNonNull(report, "report");
        }

        SeriesFigures figures() {
            return SeriesFigures.of(series, report);
        }
    }

    public ExperimentResult {
        control = List.copyOf(control);
        treatment = List.copyOf(treatment);
        treatmentSettings = Map.copyOf(treatmentSettings);
        controlSettings = Map.copyOf(controlSettings);
        armsDiffer = List.copyOf(armsDiffer);
    }

    /** Puts the arms together and compares treatment (B) against control (A). */
    public static ExperimentResult of(List<ArmRun> control, List<ArmRun> treatment,
                                      Map<String, String> treatmentSettings, Map<String, String> controlSettings,
                                      LeverChoice lever) {
        if (control.isEmpty() || treatment.isEmpty()) {
            throw new IllegalArgumentException("each side needs at least one arm (control " + control.size()
                    + ", treatment " + treatment.size() + ")");
        }
        List<String> differ = new ArrayList<>();
        SeriesFigures a = side("control", control, differ);
        SeriesFigures b = side("treatment", treatment, differ);
        Comparison c = Comparison.of(a, b, false, new LinkedHashSet<>(treatmentSettings.keySet()));
        return new ExperimentResult(control, treatment, treatmentSettings, controlSettings, lever, c, differ);
    }

    /** A side's arms as one series' figures: each arm's judged repeats, renumbered by arm; the first arm's environment. */
    private static SeriesFigures side(String name, List<ArmRun> arms, List<String> differ) {
        List<SeriesFigures.Repeat> repeats = new ArrayList<>();
        List<String> levers = new ArrayList<>();
        List<String> ids = new ArrayList<>();
        List<String> verdicts = new ArrayList<>();
        SeriesFigures first = null;
        boolean allPassed = true;
        for (ArmRun run : arms) {
            SeriesFigures f = run.figures();
            if (first == null) {
                first = f;
            } else {
                // the same side's arms must have run alike: compare's own check of environments
                for (String d : Comparison.of(first, f, false, Set.of()).differs()) {
                    differ.add(run.arm().label() + " against " + arms.get(0).arm().label() + ": " + d);
                }
            }
            for (SeriesFigures.Repeat r : f.repeats()) {
                repeats.add(r.renumbered(repeats.size() + 1));
                allPassed &= r.pass();
            }
            for (String l : f.episodeLevers()) {
                levers.add(run.arm().label() + l.replaceFirst("^rep \\d+", ""));
            }
            ids.add(run.series());
            verdicts.add(run.arm().label() + " " + run.series() + " " + f.verdict());
        }
        return new SeriesFigures(name + " arms: " + String.join(", ", ids), name, allPassed ? "PASS" : "FAIL",
                String.join("; ", verdicts), repeats, levers, first.environment());
    }

    /** The document of {@code experiment --json} (without the run's own facts, which the command adds). */
    public Map<String, Object> toJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("control", sideJson(control, controlSettings, null));
        m.put("treatment", sideJson(treatment, treatmentSettings, lever));
        Map<String, Object> cmp = comparison.toJson();
        m.put("compare", cmp);
        m.put("arms_differ", armsDiffer);
        return m;
    }

    private static Map<String, Object> sideJson(List<ArmRun> arms, Map<String, String> settings, LeverChoice lever) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("settings", new TreeMap<>(settings));
        if (lever != null) {
            Map<String, Object> l = new LinkedHashMap<>();
            l.put("from_series", lever.series());
            l.put("rep", lever.rep());
            l.put("episode_start", lever.start());
            l.put("cause", lever.cause());
            l.put("freeze_seconds", lever.freezeSeconds());
            l.put("settings", lever.settings());
            l.put("why", lever.why());
            m.put("lever", l);
        }
        List<String> series = new ArrayList<>();
        List<Double> p50 = new ArrayList<>();
        List<Double> p99 = new ArrayList<>();
        Map<String, Integer> byCause = new TreeMap<>();
        int freezes = 0;
        List<Map<String, Object>> armList = new ArrayList<>();
        List<Map<String, Object>> episodes = new ArrayList<>();
        for (ArmRun run : arms) {
            SeriesFigures f = run.figures();
            series.add(run.series());
            Set<Integer> judged = new java.util.HashSet<>();
            for (SeriesFigures.Repeat r : f.repeats()) {
                judged.add(r.rep());
                p50.add(r.p50Ms());
                p99.add(r.p99Ms());
                freezes += r.freezeSeconds();
                r.freezeSecondsByCause().forEach((c, n) -> byCause.merge(c, n, Integer::sum));
                Map<String, Object> a = new LinkedHashMap<>();
                a.put("arm", run.arm().label());
                a.put("series", run.series());
                a.put("rep", r.rep());
                a.put("verdict", f.verdict());
                a.put("pass", r.pass());
                a.put("p50_ms", r.p50Ms());
                a.put("p99_ms", r.p99Ms());
                a.put("freeze_seconds", r.freezeSeconds());
                a.put("freeze_seconds_by_cause", r.freezeSecondsByCause());
                a.put("worst_10s_p99_ms", r.worst10sP99Ms());
                a.put("dropped", r.dropped());
                a.put("wire_file", run.wireFile());
                armList.add(a);
            }
            for (JsonNode e : run.report().path("episodes")) {
                if (!judged.contains(e.path("rep").asInt())) {
                    continue;
                }
                Map<String, Object> x = new LinkedHashMap<>();
                x.put("arm", run.arm().label());
                x.put("series", run.series());
                x.put("rep", e.path("rep").asInt());
                x.put("start", e.path("start").asLong());
                x.put("end", e.path("end").asLong());
                x.put("freeze_seconds", e.path("freeze_seconds").asInt());
                x.put("worst_ms", e.path("worst_ms").isNumber() ? e.get("worst_ms").asDouble() : null);
                x.put("cause", e.path("cause").asText(null));
                x.put("confidence", e.path("confidence").asText(null));
                x.put("lever", e.path("lever").isObject() ? e.get("lever") : null);
                episodes.add(x);
            }
        }
        m.put("series", series);
        m.put("arms", armList);
        m.put("freeze_seconds", freezes);
        m.put("freeze_seconds_by_cause", byCause);
        m.put("episodes", episodes);
        m.put("p50_ms", p50);
        m.put("p99_ms", p99);
        return m;
    }

    /** Freeze-seconds of one cause over a side's judged repeats. */
    public static int freezeSeconds(List<ArmRun> arms, String cause) {
        int n = 0;
        for (ArmRun run : arms) {
            for (SeriesFigures.Repeat r : run.figures().repeats()) {
                n += r.freezeSecondsByCause().getOrDefault(cause, 0);
            }
        }
        return n;
    }

    /**
     * The arms of an experiment in the order they run: control and treatment alternate, control first
     * (A1 B1 A2 B2 ...), so that a drift of the host over the experiment (a neighbour's build, a disk filling) falls on
     * both sides alike, and {@code --treatment lever} can read its settings from A1.
     */
    public static final class ArmOrder {

        /** The control side's name, and A in compare's terms. */
        public static final String CONTROL = "control";
        /** The treatment side's name, and B in compare's terms. */
        public static final String TREATMENT = "treatment";

        private ArmOrder() {
        }

        /**
         * One arm.
         *
         * @param side {@link #CONTROL} or {@link #TREATMENT}
         * @param index 1-based within its side
         */
        public record Arm(String side, int index) {
            /** True for a treatment arm. */
            public boolean treated() {
                return TREATMENT.equals(side);
            }

            /** {@code A1}, {@code B2}: the arm's short name. */
            public String label() {
                return (treated() ? "B" : "A") + index;
            }
        }

        /** {@code repeats} arms a side, alternating, control first. */
        public static List<Arm> of(int repeats) {
            if (repeats < 1) {
                throw new IllegalArgumentException("repeats must be at least 1, was " + repeats);
            }
            List<Arm> arms = new ArrayList<>(2 * repeats);
            for (int i = 1; i <= repeats; i++) {
                arms.add(new Arm(CONTROL, i));
                arms.add(new Arm(TREATMENT, i));
            }
            return List.copyOf(arms);
        }
    }
}
