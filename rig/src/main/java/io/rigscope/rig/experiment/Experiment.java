package io.rigscope.rig.experiment;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Collections;
import java.util.regex.Pattern;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.Collection;
import java.util.TreeSet;

/**
 * Runs the arms of an experiment on one database, alternating (A1 B1 A2 B2 ...; {@link ExperimentResult.ArmOrder}): before a
 * treatment arm the treatment's settings are written ({@code ALTER SYSTEM SET}) and taken into force, before a
 * control arm they are written back and taken into force again, and after the last arm (or a failure) they are
 * written back whatever happened ({@link PgSettings}). Taken into force: a reload, or a restart when a setting's
 * context is {@code postmaster}; each change is awaited and checked ({@code current_setting} in a new session).
 * Before every arm: the arm's fresh start ({@link Arms#fresh}: the table emptied, where the experiment owns it),
 * then a {@code CHECKPOINT}, so that every arm starts from a checkpoint with its settings in force.
 */
public final class Experiment {

    /** How long a reload may take to show in {@code current_setting}. */
    static final Duration RELOAD_WAIT = Duration.ofSeconds(10);

    /** What runs an arm, and what the database offers between arms. */
    public interface Arms {
        /** Runs one arm as the series {@code series}; blocking. */
        ExperimentResult.ArmRun run(ExperimentResult.ArmOrder.Arm arm, String series);

        /** Before an arm, its settings in force: a fresh table (or nothing, where the experiment owns none). */
        void fresh(ExperimentResult.ArmOrder.Arm arm);

        /** Restarts the server (a cluster rigscope started); throws where it cannot. */
        void restart();

        /** True when {@link #restart} can be done. */
        boolean canRestart();
    }

    private final PgSettings.Session db;
    private final Arms arms;
    private final PrintStream console;
    private final String preferCause;

    /**
     * @param db SQL on the database (a superuser)
     * @param arms the arms' runner
     * @param console where the between-arm lines go
     * @param preferCause for {@code --treatment lever}: the cause whose episodes' lever comes first, or null
     */
    public Experiment(PgSettings.Session db, Arms arms, PrintStream console, String preferCause) {
        this.db = Objects.requireNonNull(db, "db");
        this.arms = Objects.requireNonNull(arms, "arms");
        this.console = Objects.requireNonNull(console, "console");
        this.preferCause = preferCause;
    }

    /**
     * Checks a treatment of settings before anything runs: every name a setting of this server that can change,
     * a restart possible where one is needed, and every value accepted ({@code ALTER SYSTEM SET}, then written back
     * at once, never reloaded: nothing is in force in between).
     *
     * @return the settings as they are
     * @throws IllegalArgumentException naming the setting and what is wrong (the command's exit 2)
     */
    public Map<String, PgSettings.Setting> check(Map<String, String> settings) {
        Map<String, PgSettings.Setting> before = PgSettings.read(db, settings.keySet());
        if (PgSettings.takes(before.values()) == PgSettings.Takes.RESTART && !arms.canRestart()) {
            throw new IllegalArgumentException(String.join(", ", before.values().stream()
                    .filter(s -> "postmaster".equals(s.context())).map(PgSettings.Setting::name).toList())
                    + " takes a restart (pg_settings.context postmaster), which rigscope does only on a cluster it "
                    + "started");
        }
        for (Map.Entry<String, String> e : settings.entrySet()) {
            try {
                PgSettings.write(db, Map.of(e.getKey(), e.getValue()));
            } catch (RuntimeException ex) {
                throw new IllegalArgumentException(e.getKey() + "=" + e.getValue() + ": the server refused it: "
                        + firstLine(ex.getMessage()));
            } finally {
                PgSettings.writeBack(db, List.of(before.get(e.getKey())));
            }
        }
        return before;
    }

    /**
     * Runs every arm and writes the settings back.
     *
     * @param treatment the treatment (for {@code lever}, chosen from the first control arm)
     * @param repeats arms a side
     * @param seriesPrefix the arms' series ids are {@code <prefix>-A1}, {@code <prefix>-B1}, ...
     */
    public ExperimentResult run(Treatment treatment, int repeats, String seriesPrefix) {
        List<ExperimentResult.ArmRun> control = new ArrayList<>();
        List<ExperimentResult.ArmRun> treated = new ArrayList<>();
        Map<String, String> settings = treatment.settings();
        Map<String, PgSettings.Setting> before = settings.isEmpty() ? null : PgSettings.read(db, settings.keySet());
        LeverChoice lever = null;
        boolean applied = false;
        try {
            for (ExperimentResult.ArmOrder.Arm arm : ExperimentResult.ArmOrder.of(repeats)) {
                if (arm.treated() && settings.isEmpty()) {
                    lever = LeverChoice.of(control.get(0).report(), preferCause);
                    settings = lever.settings();
                    console.printf("experiment: the lever of %s rep %d's %s episode (%d freeze-s): %s%n",
                            lever.series(), lever.rep(), lever.cause(), lever.freezeSeconds(), lever.describe());
                    before = PgSettings.read(db, settings.keySet());
                    if (PgSettings.takes(before.values()) == PgSettings.Takes.RESTART && !arms.canRestart()) {
                        throw new IllegalStateException("the lever's settings take a restart, which rigscope does "
                                + "only on a cluster it started: " + lever.describe());
                    }
                }
                if (arm.treated() != applied) {
                    applied = arm.treated();
                    change(settings, before, applied);
                }
                arms.fresh(arm);
                db.value("CHECKPOINT");
                console.printf("%n=== arm %s (%s): %s%n", arm.label(), arm.side(), describeInForce(settings, before,
                        applied));
                ExperimentResult.ArmRun run = arms.run(arm, seriesPrefix + "-" + arm.label());
                (arm.treated() ? treated : control).add(run);
            }
        } finally {
            if (applied) {
                console.println("experiment: writing the settings back");
                change(settings, before, false);
            }
        }
        Map<String, String> controlValues = new LinkedHashMap<>();
        before.forEach((k, s) -> controlValues.put(k, s.value()));
        return ExperimentResult.of(control, treated, settings, controlValues, lever);
    }

    /** Writes the treatment (or the values before it) and takes them into force; checks they are. */
    private void change(Map<String, String> settings, Map<String, PgSettings.Setting> before, boolean treat) {
        Map<String, String> was = new LinkedHashMap<>();
        before.forEach((k, s) -> was.put(k, s.value()));
        Map<String, String> now = PgSettings.inForce(db, settings.keySet());
        if (treat) {
            PgSettings.write(db, settings);
        } else {
            PgSettings.writeBack(db, before.values());
        }
        PgSettings.Takes takes = PgSettings.takes(before.values());
        long startNs = System.nanoTime();
        if (takes == PgSettings.Takes.RESTART) {
            arms.restart();
        } else {
            PgSettings.reload(db);
        }
        List<String> changed = new ArrayList<>();
        Map<String, String> expected = new LinkedHashMap<>();
        for (String k : settings.keySet()) {
            if (treat) {
                if (!settings.get(k).equals(was.get(k))) {
                    changed.add(k);
                }
            } else {
                expected.put(k, was.get(k));
            }
        }
        Map<String, String> after = PgSettings.await(db, now, expected, changed, RELOAD_WAIT);
        List<String> lines = new ArrayList<>();
        for (String k : settings.keySet()) {
            lines.add(k + " " + now.get(k) + " -> " + after.get(k));
            if (changed.contains(k) && after.get(k).equals(now.get(k))) {
                throw new IllegalStateException(k + " is " + after.get(k) + " after the " + takes.name()
                        .toLowerCase(java.util.Locale.ROOT) + ", as before: " + k + "=" + settings.get(k)
                        + " changes nothing, or the server did not take it");
            }
            if (!treat && !after.get(k).equals(was.get(k))) {
                throw new IllegalStateException(k + " is " + after.get(k) + " after writing it back, not " + was.get(k)
                        + " as before the experiment");
            }
        }
        console.printf(java.util.Locale.ROOT, "settings %s by %s in %.1f s: %s%n", treat ? "applied" : "written back",
                takes == PgSettings.Takes.RESTART ? "a restart" : "a reload", (System.nanoTime() - startNs) / 1e9,
                String.join(", ", lines));
    }

    private static String describeInForce(Map<String, String> settings, Map<String, PgSettings.Setting> before,
                                          boolean treated) {
        if (settings.isEmpty()) {
            return "the settings as the cluster has them";
        }
        StringBuilder b = new StringBuilder();
        settings.forEach((k, v) -> b.append(b.length() == 0 ? "" : ", ").append(k).append('=')
                .append(treated ? v : before.get(k).value()));
        return b.toString();
    }

    private static String firstLine(String s) {
        return s == null ? "" : s.strip().lines().filter(l -> l.contains("ERROR")).findFirst()
                .orElse(s.strip().lines().findFirst().orElse(""));
    }

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

    /**
     * Postgres settings changed for an experiment's treatment and put back: read as they are ({@code pg_settings}:
     * the value in force and its context; {@code pg_file_settings}: what {@code postgresql.auto.conf} says), changed
     * with {@code ALTER SYSTEM SET}, restored with {@code ALTER SYSTEM SET} to what {@code postgresql.auto.conf} held or
     * {@code ALTER SYSTEM RESET} where it held nothing, and taken into force by a reload ({@code pg_reload_conf()}) or,
     * for a setting whose {@code context} is {@code postmaster}, by a restart (the caller's: only a cluster rigscope
     * started can be restarted). Needs a superuser (ALTER SYSTEM, pg_file_settings).
     */
    public static final class PgSettings {

        private static final ObjectMapper JSON = new ObjectMapper();

        /** How settings change take effect. */
        public enum Takes { RELOAD, RESTART }

        /** SQL on the database: the first column of the first row as text ("" when there is no row). */
        public interface Session {
            String value(String sql);
        }

        /**
         * One setting as it was before the experiment.
         *
         * @param name the setting
         * @param value {@code current_setting(name)}: the value in force, in its display form ({@code 2GB})
         * @param context {@code pg_settings.context}: {@code postmaster} needs a restart, {@code internal} cannot change
         * @param autoConf the value {@code postgresql.auto.conf} holds for it as written, or null when it holds none
         */
        public record Setting(String name, String value, String context, String autoConf) {
            public Setting {
                Objects.requireNonNull(name, "name");
            }
        }

        private PgSettings() {
        }

        /**
         * The settings as they are now.
         *
         * @throws IllegalArgumentException naming every name the server does not know, or one that cannot be changed
         *     ({@code internal}: fixed when the cluster was made)
         */
        public static Map<String, Setting> read(Session db, Collection<String> names) {
            List<String> wanted = new ArrayList<>(new TreeSet<>(names));
            for (String n : wanted) {
                if (!Treatment.NAME.matcher(n).matches()) {
                    throw new IllegalArgumentException("'" + n + "' is not a Postgres setting's name");
                }
            }
            if (wanted.isEmpty()) {
                return Map.of();
            }
            String list = String.join(", ", wanted.stream().map(PgSettings::literal).toList());
            String text = db.value("SELECT coalesce(json_agg(json_build_object('name', s.name, 'value', "
                    + "current_setting(s.name), 'context', s.context, 'auto', f.setting) ORDER BY s.name), '[]')::text "
                    + "FROM pg_settings s LEFT JOIN LATERAL (SELECT fs.setting FROM pg_file_settings fs "
                    + "WHERE fs.name = s.name AND fs.sourcefile LIKE '%postgresql.auto.conf' ORDER BY fs.seqno DESC "
                    + "LIMIT 1) f ON true WHERE s.name IN (" + list + ")");
            JsonNode rows;
            try {
                rows = JSON.readTree(text.strip());
            } catch (IOException e) {
                throw new IllegalStateException("pg_settings could not be read: " + text, e);
            }
            Map<String, Setting> out = new LinkedHashMap<>();
            for (JsonNode r : rows) {
                out.put(r.get("name").asText(), new Setting(r.get("name").asText(), r.get("value").asText(),
                        r.get("context").asText(), r.get("auto").isNull() ? null : r.get("auto").asText()));
            }
            List<String> unknown = wanted.stream().filter(n -> !out.containsKey(n)).toList();
            if (!unknown.isEmpty()) {
                throw new IllegalArgumentException(String.join(", ", unknown) + (unknown.size() == 1 ? " is" : " are")
                        + " not a setting of this server (pg_settings)");
            }
            List<String> fixed = out.values().stream().filter(s -> "internal".equals(s.context())).map(Setting::name)
                    .toList();
            if (!fixed.isEmpty()) {
                throw new IllegalArgumentException(String.join(", ", fixed) + " cannot be changed on a running cluster "
                        + "(pg_settings.context internal: fixed when the cluster was made)");
            }
            return out;
        }

        /** What a change of these settings takes: a restart when any is {@code postmaster}, else a reload. */
        public static Takes takes(Collection<Setting> settings) {
            return settings.stream().anyMatch(s -> "postmaster".equals(s.context())) ? Takes.RESTART : Takes.RELOAD;
        }

        /** {@code ALTER SYSTEM SET} each (the server checks each value and refuses a bad one); not yet in force. */
        public static void write(Session db, Map<String, String> values) {
            values.forEach((k, v) -> db.value("ALTER SYSTEM SET " + ident(k) + " = " + literal(v)));
        }

        /** Writes back what {@code postgresql.auto.conf} held for each before; not yet in force. */
        public static void writeBack(Session db, Collection<Setting> before) {
            for (Setting s : before) {
                db.value(s.autoConf() != null ? "ALTER SYSTEM SET " + ident(s.name()) + " = " + literal(s.autoConf())
                        : "ALTER SYSTEM RESET " + ident(s.name()));
            }
        }

        /** Asks the server to read its configuration again ({@code pg_reload_conf()}). */
        public static void reload(Session db) {
            db.value("SELECT pg_reload_conf()");
        }

        /** The values in force now ({@code current_setting}), as read by a new statement. */
        public static Map<String, String> inForce(Session db, Collection<String> names) {
            Map<String, String> out = new LinkedHashMap<>();
            read(db, names).forEach((k, s) -> out.put(k, s.value()));
            return out;
        }

        /**
         * Waits until every setting is in force as {@code expected} says: for a value to have changed ({@code changed}
         * names the ones that must differ from {@code before}) or to be back ({@code expected} holds the display form).
         * A reload is signalled, not awaited, by the server: this polls {@code current_setting} every 100 ms.
         *
         * @return the values in force when they matched, or when {@code wait} ran out (the caller compares)
         */
        public static Map<String, String> await(Session db, Map<String, String> before, Map<String, String> expected,
                                                Collection<String> changed, Duration wait) {
            long deadline = System.nanoTime() + wait.toNanos();
            Map<String, String> now;
            while (true) {
                now = inForce(db, before.keySet());
                boolean ok = true;
                for (String k : before.keySet()) {
                    if (changed.contains(k) ? now.get(k).equals(before.get(k))
                            : expected.containsKey(k) && !now.get(k).equals(expected.get(k))) {
                        ok = false;
                    }
                }
                if (ok || System.nanoTime() > deadline) {
                    return now;
                }
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return now;
                }
            }
        }

        /** A SQL string literal. */
        static String literal(String s) {
            return "'" + s.replace("'", "''") + "'";
        }

        /** A setting's name as an identifier (checked against {@link Treatment#NAME}; dotted names quoted per part). */
        static String ident(String name) {
            if (!Treatment.NAME.matcher(name).matches()) {
                throw new IllegalArgumentException("'" + name + "' is not a Postgres setting's name");
            }
            return name;
        }
    }
}
