package io.rigscope.rig.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rigscope.localenv.postgres.PrivatePostgres;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link Experiment} on a real private cluster: the arms alternate, each sees the settings of its side in force
 * (a reload for sighup settings, a restart for a postmaster one), and afterwards every setting and
 * postgresql.auto.conf are as before. An arm here reads the settings in force (its series is not what is tested)
 * and hands back a real recorded report (analyzer/src/test/resources/compare).
 */
@Tag("it")
class ExperimentSettingsTest {

    private static final Path COMPARE = Path.of("..", "analyzer", "src", "test", "resources", "compare");
    private static final List<String> KEYS = List.of("min_wal_size", "wal_recycle", "shared_buffers");

    private static PrivatePostgres pg;
    private static Experiment.PgSettings.Session db;

    @BeforeAll
    static void start() {
        // min_wal_size as the cluster's own postgresql.auto.conf holds it; wal_recycle and shared_buffers not in it
        pg = PrivatePostgres.startTemporary(PrivatePostgres.Options.defaults().with("min_wal_size", "'160MB'"));
        db = sql -> pg.psql("postgres", sql);
    }

    @AfterAll
    static void stop() {
        if (pg != null) {
            pg.close();
        }
    }

    @Test
    void armsAlternateEachWithItsSidesSettingsInForceAndEverythingIsWrittenBack() throws Exception {
        Map<String, String> autoBefore = autoConf();
        Map<String, String> before = Experiment.PgSettings.inForce(db, KEYS);
        assertThat(before).containsEntry("min_wal_size", "160MB").containsEntry("wal_recycle", "on");
        Map<String, String> treatment = new LinkedHashMap<>();
        treatment.put("min_wal_size", "320MB");
        treatment.put("wal_recycle", "off");
        treatment.put("shared_buffers", "64MB");
        List<String> seen = new ArrayList<>();
        int[] restarts = {0};
        JsonNode reportA = new ObjectMapper().readTree(COMPARE.resolve("run-a.report.json").toFile());
        JsonNode reportB = new ObjectMapper().readTree(COMPARE.resolve("run-b.report.json").toFile());
        Experiment.Arms arms = new Experiment.Arms() {
            @Override
            public ExperimentResult.ArmRun run(ExperimentResult.ArmOrder.Arm arm, String series) {
                seen.add(arm.label() + " " + series + " " + Experiment.PgSettings.inForce(db, KEYS));
                return new ExperimentResult.ArmRun(arm, series, arm.treated() ? reportB : reportA, null);
            }

            @Override
            public void fresh(ExperimentResult.ArmOrder.Arm arm) {
            }

            @Override
            public void restart() {
                restarts[0]++;
                pg.stopServer();
                pg.startServer();
            }

            @Override
            public boolean canRestart() {
                return true;
            }
        };
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        Experiment e = new Experiment(db, arms, new PrintStream(console, true, StandardCharsets.UTF_8), null);
        assertThat(e.check(treatment)).containsKeys("min_wal_size", "wal_recycle", "shared_buffers");
        assertThat(autoConf()).as("a check writes back at once").isEqualTo(autoBefore);

        ExperimentResult r = e.run(Experiment.Treatment.parse("min_wal_size=320MB,wal_recycle=off,shared_buffers=64MB"), 2,
                "exp-test");

        // in force, as read back (by name)
        String control = "{min_wal_size=160MB, shared_buffers=" + before.get("shared_buffers") + ", wal_recycle=on}";
        String treated = "{min_wal_size=320MB, shared_buffers=64MB, wal_recycle=off}";
        assertThat(seen).containsExactly("A1 exp-test-A1 " + control, "B1 exp-test-B1 " + treated,
                "A2 exp-test-A2 " + control, "B2 exp-test-B2 " + treated);
        // shared_buffers is a postmaster setting: every change (before B1, A2, B2 and after B2) restarted
        assertThat(restarts[0]).isEqualTo(4);
        assertThat(console.toString(StandardCharsets.UTF_8)).contains("settings applied by a restart",
                "min_wal_size 160MB -> 320MB", "settings written back by a restart", "min_wal_size 320MB -> 160MB");
        assertThat(Experiment.PgSettings.inForce(db, KEYS)).isEqualTo(before);
        assertThat(autoConf()).isEqualTo(autoBefore).containsEntry("min_wal_size", "160MB")
                .doesNotContainKeys("wal_recycle", "shared_buffers");
        assertThat(r.treatmentSettings()).isEqualTo(treatment);
        assertThat(r.controlSettings()).containsEntry("min_wal_size", "160MB").containsEntry("wal_recycle", "on");
        assertThat(r.control()).extracting(a -> a.arm().label()).containsExactly("A1", "A2");
    }

    @Test
    void aReloadAloneTakesSighupSettingsIntoForce() {
        int[] restarts = {0};
        List<String> seen = new ArrayList<>();
        JsonNode report;
        try {
            report = new ObjectMapper().readTree(COMPARE.resolve("run-a.report.json").toFile());
        } catch (java.io.IOException ex) {
            throw new java.io.UncheckedIOException(ex);
        }
        Experiment.Arms arms = new Experiment.Arms() {
            @Override
            public ExperimentResult.ArmRun run(ExperimentResult.ArmOrder.Arm arm, String series) {
                seen.add(arm.label() + " " + Experiment.PgSettings.inForce(db, List.of("wal_recycle")).get("wal_recycle"));
                return new ExperimentResult.ArmRun(arm, series, report, null);
            }

            @Override
            public void fresh(ExperimentResult.ArmOrder.Arm arm) {
            }

            @Override
            public void restart() {
                restarts[0]++;
            }

            @Override
            public boolean canRestart() {
                return false;
            }
        };
        new Experiment(db, arms, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), null)
                .run(Experiment.Treatment.parse("wal_recycle=off"), 1, "exp-reload");
        assertThat(seen).containsExactly("A1 on", "B1 off");
        assertThat(restarts[0]).isZero();
        assertThat(Experiment.PgSettings.inForce(db, List.of("wal_recycle"))).containsEntry("wal_recycle", "on");
    }

    @Test
    void aSettingTheServerDoesNotKnowCannotChangeOrRefusesIsNamedAndNothingIsWritten() throws Exception {
        Map<String, String> autoBefore = autoConf();
        Experiment e = new Experiment(db, new Experiment.Arms() {
            @Override
            public ExperimentResult.ArmRun run(ExperimentResult.ArmOrder.Arm arm, String series) {
                throw new AssertionError("no arm runs");
            }

            @Override
            public void fresh(ExperimentResult.ArmOrder.Arm arm) {
            }

            @Override
            public void restart() {
            }

            @Override
            public boolean canRestart() {
                return false;
            }
        }, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), null);
        assertThatThrownBy(() -> e.check(Map.of("no_such_setting", "1"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no_such_setting is not a setting of this server");
        assertThatThrownBy(() -> e.check(Map.of("wal_segment_size", "32MB"))).hasMessageContaining(
                "wal_segment_size cannot be changed on a running cluster");
        assertThatThrownBy(() -> e.check(Map.of("shared_buffers", "64MB"))).hasMessageContaining(
                "shared_buffers takes a restart");
        assertThatThrownBy(() -> e.check(Map.of("min_wal_size", "lots"))).hasMessageContaining(
                "min_wal_size=lots: the server refused it");
        assertThat(autoConf()).isEqualTo(autoBefore);
    }

    /** What postgresql.auto.conf holds now, as the server reads the file. */
    private static Map<String, String> autoConf() throws Exception {
        JsonNode rows = new ObjectMapper().readTree(db.value("SELECT coalesce(json_agg(json_build_object('n', name, "
                + "'v', setting)), '[]')::text FROM pg_file_settings WHERE sourcefile LIKE '%postgresql.auto.conf'"));
        Map<String, String> out = new LinkedHashMap<>();
        rows.forEach(r -> out.put(r.get("n").asText(), r.get("v").asText()));
        return out;
    }
}
