package io.rigscope.rig.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.localenv.testing.KafkaBroker;
import io.rigscope.rig.Main;
import io.rigscope.sut.RunningSut;
import io.rigscope.sut.testing.SutOnPostgres;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

class RunCommandTest {

    @RegisterExtension
    static final KafkaBroker kafka = new KafkaBroker();
    @RegisterExtension
    static final SutOnPostgres db = new SutOnPostgres();

    private record Result(int exit, String out) {
    }

    private static Result run(String... args) {
        var out = new ByteArrayOutputStream();
        PrintStream old = System.out;
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            int exit = Main.run(args);
            return new Result(exit, out.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(old);
        }
    }

    @Test
    void aServiceRigscopeDidNotStartWithoutReconciliationSqlIsUnreconciledAndSaidSoNotAnError(@TempDir Path dir)
            throws Exception {
        try (RunningSut other = db.start()) {
            Path config = dir.resolve("series.yaml");
            Files.writeString(config, "target: {url: '" + other.baseUri() + "', api_key: rigscope-demo-key}\n"
                    + "database: " + db.owner().libpq() + "\n"
                    + "sustained: {rate: 20, repeats: 1, duration: 2s, cooldown: 0s}\n"
                    + "load: {probe_rate: 0}\n");
            Path report = dir.resolve("report.json");
            Result r = run("run", "--config", config.toString(), "--series", "other-" + UUID.randomUUID(),
                    "--bootstrap", kafka.bootstrap(), "--report-json", report.toString());
            assertThat(r.out()).contains("reconciliation: the series file gives no reconciliation_sql")
                    .doesNotContain("sut: starting the reference SUT")
                    .doesNotContain("database gained");
            assertThat(r.exit()).isIn(ExitCodes.OK, ExitCodes.GATES_FAILED);
            assertThat(Files.readString(report)).contains("UNRECONCILED");
        }
    }

    @Test
    void aBadDatabaseUrlInTheFileExitsTwoNamingTheFileAndKey(@TempDir Path dir) throws Exception {
        Path config = dir.resolve("series.yaml");
        Files.writeString(config, "database: 'postgresql://u:hunter2@h/d?sslmode=sometimes'\nsustained: {rate: 5}\n");
        var err = new ByteArrayOutputStream();
        PrintStream old = System.err;
        int exit;
        try {
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            exit = Main.run("run", "--config", config.toString(), "--bootstrap", kafka.bootstrap());
        } finally {
            System.setErr(old);
        }
        assertThat(exit).isEqualTo(ExitCodes.USAGE);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains(config + ": database").contains("sslmode")
                .doesNotContain("hunter2");
    }
}
