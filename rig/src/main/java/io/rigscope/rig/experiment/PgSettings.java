package io.rigscope.rig.experiment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * Postgres settings changed for an experiment's treatment and put back: read as they are ({@code pg_settings}:
 * the value in force and its context; {@code pg_file_settings}: what {@code postgresql.auto.conf} says), changed
 * with {@code ALTER SYSTEM SET}, restored with {@code ALTER SYSTEM SET} to what {@code postgresql.auto.conf} held or
 * {@code ALTER SYSTEM RESET} where it held nothing, and taken into force by a reload ({@code pg_reload_conf()}) or,
 * for a setting whose {@code context} is {@code postmaster}, by a restart (the caller's: only a cluster rigscope
 * started can be restarted). Needs a superuser (ALTER SYSTEM, pg_file_settings).
 */
public final class PgSettings {

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
