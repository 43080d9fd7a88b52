package io.rigscope.rig.experiment;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Runs the arms of an experiment on one database, alternating (A1 B1 A2 B2 ...; {@link ArmOrder}): before a
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
        ExperimentResult.ArmRun run(ArmOrder.Arm arm, String series);

        /** Before an arm, its settings in force: a fresh table (or nothing, where the experiment owns none). */
        void fresh(ArmOrder.Arm arm);

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
            for (ArmOrder.Arm arm : ArmOrder.of(repeats)) {
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
}
