package io.rigscope.rig.denominator;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DenominatorFailureTest {

    @Test
    void pgbenchsOwnErrorLineIsTheCauseNotItsClosingRunWasAborted() {
        String out = """
                pgbench (15.18 (Debian 15.18-0+deb12u1))
                pgbench: error: client 1 script 0 aborted in command 20 query 0: ERROR:  new row for relation "orders" violates check constraint "orders_qty_check"
                DETAIL:  Failing row contains (x, cust-7, 1004, 2026-12-06 04:23:08+00).
                pgbench: error: Run was aborted; the above results are incomplete.
                """;
        assertThat(Denominator.errorLine(out)).startsWith("pgbench: error: client 1 script 0 aborted")
                .endsWith("violates check constraint \"orders_qty_check\"");
        assertThat(Denominator.errorLine("pgbench: error: Run was aborted; the above results are incomplete."))
                .contains("Run was aborted");
        assertThat(Denominator.errorLine("progress: 1.0 s, 10 tps")).isNull();
    }

    @Test
    void thePostgresLogsFirstErrorSinceTheMarkIsFoundAndEarlierOnesAreNot(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("postgres.log");
        Files.writeString(log, "2026-12-06 04:20:00.000 UTC [7] ERROR:  an earlier error\n");
        Denominator.LogExcerpt mark = Denominator.LogExcerpt.mark(log);
        assertThat(mark.firstError()).isNull();
        Files.writeString(log, "2026-12-06 04:23:10.000 UTC [9] LOG:  checkpoint starting: time\n"
                + "2026-12-06 04:23:11.000 UTC [9] ERROR:  new row for relation \"orders\" violates check constraint\n",
                java.nio.file.StandardOpenOption.APPEND);
        assertThat(mark.firstError()).isEqualTo("ERROR:  new row for relation \"orders\" violates check constraint");
        assertThat(Denominator.LogExcerpt.mark(null).firstError()).isNull();
    }
}
