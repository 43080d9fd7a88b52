package io.rigscope.rig.experiment;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * What {@code rigscope experiment --treatment} changes: Postgres settings given as {@code KEY=VALUE[,KEY=VALUE]},
 * or {@code lever}: the settings the control's episodes name ({@link LeverChoice}), known only after the first
 * control arm.
 *
 * @param fromLever true for {@code --treatment lever}
 * @param settings the settings and their values as written (empty for {@code lever} until chosen)
 */
public record Treatment(boolean fromLever, Map<String, String> settings) {

    /** A setting's name: lower case letters, digits and underscores, a dot for an extension's (auto_explain.x). */
    static final Pattern NAME = Pattern.compile("[a-z_][a-z0-9_]*(\\.[a-z_][a-z0-9_]*)?");

    public Treatment {
        settings = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(settings, "settings")));
    }

    /**
     * Parses the flag's text.
     *
     * @throws IllegalArgumentException naming what is wrong: an empty text, a part without {@code =}, a name that is
     *     no setting's form, an empty value, a setting given twice
     */
    public static Treatment parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("empty: give KEY=VALUE[,KEY=VALUE] or lever");
        }
        String t = text.strip();
        if (t.equals("lever")) {
            return new Treatment(true, Map.of());
        }
        Map<String, String> settings = new LinkedHashMap<>();
        for (String part : t.split(",", -1)) {
            String p = part.strip();
            int eq = p.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException("'" + p + "' is not KEY=VALUE (or the word lever)");
            }
            String key = p.substring(0, eq).strip().toLowerCase(java.util.Locale.ROOT);
            String value = p.substring(eq + 1).strip();
            if (!NAME.matcher(key).matches()) {
                throw new IllegalArgumentException("'" + p.substring(0, eq).strip() + "' is not a Postgres setting's "
                        + "name");
            }
            if (value.isEmpty()) {
                throw new IllegalArgumentException(key + " has no value");
            }
            if (value.length() >= 2 && value.startsWith("'") && value.endsWith("'")) {
                value = value.substring(1, value.length() - 1);
            }
            if (settings.put(key, value) != null) {
                throw new IllegalArgumentException(key + " is given twice");
            }
        }
        return new Treatment(false, settings);
    }

    /** The treatment with the settings a lever named. */
    public Treatment withSettings(Map<String, String> chosen) {
        return new Treatment(fromLever, chosen);
    }

    /** {@code min_wal_size=7GB, wal_recycle=on}. */
    public String describe() {
        if (settings.isEmpty()) {
            return fromLever ? "the lever of the first control arm's episodes (not chosen yet)" : "nothing";
        }
        StringBuilder b = new StringBuilder();
        settings.forEach((k, v) -> b.append(b.length() == 0 ? "" : ", ").append(k).append('=').append(v));
        return b.toString();
    }
}
