package io.rigscope.rig.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.rig.options.ExitCodes;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code rigscope experiment}'s flags: each bad one exits 2 naming it, before a broker, a cluster or a database is
 * touched; a database rigscope did not start is changed only with --apply-to-my-database, and the refusal says what
 * would change.
 */
class ExperimentCommandTest {

    @TempDir
    Path dir;

    private String err;

    @Test
    void badFlagsExitTwoNamingTheFlag() throws Exception {
        assertThat(run("experiment", "--provoke", "wal-pool")).isEqualTo(ExitCodes.USAGE);
        assertThat(err).contains("Missing required option: '--treatment");
        assertThat(run("experiment", "--treatment", "lever")).isEqualTo(ExitCodes.USAGE);
        assertThat(err).contains("give --config FILE or --provoke CAUSE");
        Path yaml = Files.writeString(dir.resolve("s.yaml"), "sustained: {rate: 10, repeats: 1, duration: 2s}\n");
        assertThat(run("experiment", "--treatment", "lever", "--provoke", "wal-pool", "--config", yaml.toString()))
                .isEqualTo(ExitCodes.USAGE);
        assertThat(err).contains("--config and --provoke: give one of them");
        assertThat(run("experiment", "--treatment", "lever", "--provoke", "no-such")).isEqualTo(ExitCodes.USAGE);
        assertThat(err).contains("--provoke 'no-such' is not a cause rigscope provokes; one of: clean,", "wal-pool");
        assertThat(run("experiment", "--treatment", "min_wal_size", "--provoke", "wal-pool")).isEqualTo(ExitCodes.USAGE);
        assertThat(err).contains("--treatment min_wal_size: 'min_wal_size' is not KEY=VALUE");
        assertThat(run("experiment", "--treatment", "lever", "--provoke", "wal-pool", "--repeats", "0"))
                .isEqualTo(ExitCodes.USAGE);
        assertThat(err).contains("--repeats 0: between 1 and 12");
        assertThat(run("experiment", "--treatment", "lever", "--provoke", "wal-pool", "--repeats", "13"))
                .isEqualTo(ExitCodes.USAGE);
        assertThat(err).contains("--repeats 13");
        assertThat(run("experiment", "--treatment", "lever", "--provoke", "wal-pool", "--repeats", "x"))
                .isEqualTo(ExitCodes.USAGE);
        assertThat(err).contains("--repeats");
        assertThat(run("experiment", "--treatment", "lever", "--provoke", "wal-pool", "--pg",
                "postgresql://u@127.0.0.1:5432/db")).isEqualTo(ExitCodes.USAGE);
        assertThat(err).contains("--pg with --provoke");
        assertThat(run("experiment", "--treatment", "lever", "--provoke", "wal-pool", "--apply-to-my-database"))
                .isEqualTo(ExitCodes.USAGE);
        assertThat(err).contains("--apply-to-my-database with --provoke");
        assertThat(run("experiment", "--treatment", "lever", "--config", dir.resolve("none.yaml").toString()))
                .isEqualTo(ExitCodes.USAGE);
        assertThat(err).contains("--config " + dir.resolve("none.yaml") + ": no such file");
        Path file = Files.writeString(dir.resolve("afile"), "x");
        assertThat(run("experiment", "--treatment", "lever", "--provoke", "wal-pool", "--out-dir", file.toString()))
                .isEqualTo(ExitCodes.USAGE);
        assertThat(err).contains("--out-dir " + file + " is a file");
    }

    @Test
    void aDatabaseRigscopeDidNotStartIsChangedOnlyWhenToldAndTheRefusalSaysWhatWouldChange() throws Exception {
        Path yaml = Files.writeString(dir.resolve("mine.yaml"), """
                database: postgresql://me:secret@127.0.0.1:5999/shop
                sustained: {rate: 10, repeats: 1, duration: 2s}
                """);
        assertThat(run("experiment", "--config", yaml.toString(), "--treatment", "min_wal_size=4GB"))
                .isEqualTo(ExitCodes.USAGE);
        assertThat(err).contains("was not started by rigscope, which changes nothing on it unless told: add "
                        + "--apply-to-my-database", "ALTER SYSTEM SET min_wal_size = '4GB'", "pg_reload_conf()",
                "CHECKPOINT", "no table is emptied").doesNotContain("secret");
        assertThat(run("experiment", "--config", yaml.toString(), "--treatment", "lever", "--pg",
                "postgresql://other@127.0.0.1:5998/db")).isEqualTo(ExitCodes.USAGE);
        assertThat(err).contains("(--pg) was not started by rigscope",
                "the settings the first control arm's episodes name as their lever");
    }

    private int run(String... args) {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        PrintStream savedOut = System.out;
        try {
            System.setOut(new PrintStream(o, true, StandardCharsets.UTF_8));
            var cl = RigscopeCommand.commandLine();
            cl.setErr(new PrintWriter(e, true, StandardCharsets.UTF_8));
            return cl.execute(args);
        } finally {
            System.setOut(savedOut);
            err = e.toString(StandardCharsets.UTF_8);
        }
    }
}
