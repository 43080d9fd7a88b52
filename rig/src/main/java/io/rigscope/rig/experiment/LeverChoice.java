package io.rigscope.rig.experiment;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code --treatment lever}: the settings the first control arm's episodes named. Of the episodes of its judged
 * (sustained) repeats whose lever names a setting ({@code lever.setting} not null): those of the expected cause
 * first (a provocation's, e.g. {@code wal_pool}), then the one with the most freeze-seconds, the earliest on a tie.
 * Its {@code setting=value} and every {@code also} entry (further settings the same evidence sized) are the
 * treatment.
 *
 * @param series the arm's series
 * @param rep the episode's repeat
 * @param start the episode's first second (epoch)
 * @param cause the episode's cause
 * @param freezeSeconds its freeze-seconds
 * @param settings what the lever sets, {@code setting} first, then {@code also}
 * @param why the lever's own reasoning
 */
record LeverChoice(String series, int rep, long start, String cause, int freezeSeconds,
                          Map<String, String> settings, String why) {

    /**
     * The lever of a report (the JSON of {@code --report-json}).
     *
     * @param preferCause the cause whose episodes come first, or null
     * @throws IllegalStateException saying what the episodes named when none has a lever with a setting
     */
    public static LeverChoice of(JsonNode report, String preferCause) {
        Set<Integer> judged = new HashSet<>();
        for (JsonNode r : report.path("repeats")) {
            if ("sustained".equals(r.path("kind").asText())) {
                judged.add(r.path("rep").asInt());
            }
        }
        if (judged.isEmpty()) {
            report.path("repeats").forEach(r -> judged.add(r.path("rep").asInt()));
        }
        JsonNode best = null;
        List<String> seen = new ArrayList<>();
        for (JsonNode e : report.path("episodes")) {
            if (!judged.contains(e.path("rep").asInt())) {
                continue;
            }
            JsonNode l = e.path("lever");
            seen.add(e.path("cause").asText() + " (" + e.path("freeze_seconds").asInt() + " freeze-s): "
                    + (!l.isObject() ? "no lever" : l.hasNonNull("setting") ? l.get("setting").asText() + "="
                    + l.path("value").asText() : l.hasNonNull("action") ? "action: " + l.get("action").asText()
                    : "not computed: " + l.path("why").asText()));
            if (!l.isObject() || !l.hasNonNull("setting") || !l.hasNonNull("value")) {
                continue;
            }
            if (best == null || better(e, best, preferCause)) {
                best = e;
            }
        }
        if (best == null) {
            throw new IllegalStateException("--treatment lever: the first control arm (" + report.path("series")
                    .asText() + ") has no episode whose lever names a setting; its episodes: "
                    + (seen.isEmpty() ? "none" : String.join("; ", seen)));
        }
        JsonNode l = best.get("lever");
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put(l.get("setting").asText(), l.get("value").asText());
        for (JsonNode a : l.path("also")) {
            if (a.hasNonNull("setting") && a.hasNonNull("value")) {
                settings.putIfAbsent(a.get("setting").asText(), a.get("value").asText());
            }
        }
        return new LeverChoice(report.path("series").asText(), best.path("rep").asInt(), best.path("start").asLong(),
                best.path("cause").asText(), best.path("freeze_seconds").asInt(), settings, l.path("why").asText());
    }

    private static boolean better(JsonNode e, JsonNode best, String preferCause) {
        boolean ep = preferCause != null && preferCause.equals(e.path("cause").asText());
        boolean bp = preferCause != null && preferCause.equals(best.path("cause").asText());
        if (ep != bp) {
            return ep;
        }
        return e.path("freeze_seconds").asInt() > best.path("freeze_seconds").asInt();
    }

    /** {@code wal_recycle=on, min_wal_size=7GB}. */
    public String describe() {
        StringBuilder b = new StringBuilder();
        settings.forEach((k, v) -> b.append(b.length() == 0 ? "" : ", ").append(k).append('=').append(v));
        return b.toString();
    }
}
