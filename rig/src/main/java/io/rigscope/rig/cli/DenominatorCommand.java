package io.rigscope.rig.cli;

import io.rigscope.rig.options.Durations;
import io.rigscope.rig.options.ExitCodes;
import io.rigscope.rig.options.PgTarget;
import io.rigscope.rig.options.UsageException;
import java.time.Duration;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rigscope.rig.denominator.Denominator;
import io.rigscope.sut.Sut;
import io.rigscope.sut.SutConfig;
import io.rigscope.sut.schema.Provisioning;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code rigscope denominator}: the database's own insert ceiling for the SUT's row shape (pgbench). */
@Command(name = "denominator", mixinStandardHelpOptions = true,
        description = {"Measure the database alone with pgbench (the SUT's row shape and batch).",
            "pgbench (closed loop) runs a script inserting the SUT's row shape, BATCH rows per transaction, into usage_events in the same database, and prints "
            + "\"database alone M rows/s\". Without --pg it uses a private cluster it migrates and throws away.",
            "The rows stay in the table (keys denominator-*): run it after the repeats, not between them."})
final class DenominatorCommand implements Callable<Integer> {

    @Option(names = "--pg", paramLabel = "URL", description = "The database: " + PgTarget.URL_FORM + " (default: a private cluster).")
    String pg;

    @Option(names = "--batch", required = true, paramLabel = "B", description = "Rows per transaction: the SUT's batch size.")
    int batch;

    @Option(names = "--duration", paramLabel = "DURATION", defaultValue = "30s", description = "How long pgbench runs (default: ${DEFAULT-VALUE}).")
    Duration duration;

    @Option(names = "--clients", paramLabel = "N", description = "Concurrent pgbench clients (default: ${DEFAULT-VALUE}).")
    int clients = 8;

    @Option(names = "--tenant", paramLabel = "NAME", description = "The tenant the rows carry (default: ${DEFAULT-VALUE}).")
    String tenant = Provisioning.DEMO_TENANT;

    @Option(names = "--pgbench", paramLabel = "PATH", description = "The pgbench binary (default: PATH, then /usr/lib/postgresql/N/bin).")
    Path pgbench;

    @Option(names = "--json", description = "Print the result as one JSON object on stdout as well.")
    boolean json;

    @Override
    public Integer call() throws Exception {
        var d = Durations.positive("--duration", duration);
        try (PgTarget target = PgTarget.resolve(pg)) {
            if (target.owned()) {
                Sut.start(SutConfig.defaults(target.url()).withMigrate(true)).close();
            }
            Denominator.Spec spec;
            try {
                spec = new Denominator.Spec(target.url(), batch, d, clients, tenant, pgbench);
            } catch (IllegalArgumentException e) {
                throw new UsageException(e.getMessage());
            }
            System.err.printf("denominator: pgbench, %d clients, batch %d, %d s on %s%n", clients, batch, d.toSeconds(),
                    target.url());
            Denominator.Result r = new Denominator(spec).run(line -> System.err.println("denominator: " + line));
            System.out.println(r.line());
            if (json) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("rows_per_sec", Math.round(r.rowsPerSec()));
                m.put("tps", r.tps());
                m.put("batch", batch);
                m.put("clients", clients);
                m.put("duration_sec", d.toSeconds());
                m.put("transactions", r.transactions());
                m.put("failed_transactions", r.failedTransactions());
                m.put("latency_avg_ms", r.latencyAvgMs());
                System.out.println(new ObjectMapper().writeValueAsString(m));
            }
            return r.failedTransactions() > 0 ? ExitCodes.ERROR : ExitCodes.OK;
        }
    }
}
