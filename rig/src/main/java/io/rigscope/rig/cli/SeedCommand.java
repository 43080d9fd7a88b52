package io.rigscope.rig.cli;

import io.rigscope.pg.PgUrl;
import io.rigscope.rig.options.Durations;
import io.rigscope.rig.options.ExitCodes;
import io.rigscope.rig.options.PgTarget;
import io.rigscope.rig.options.UsageException;
import io.rigscope.sut.SutContract;
import io.rigscope.sut.schema.Provisioning;
import io.rigscope.sut.seed.AutovacuumSettle;
import io.rigscope.sut.seed.Seeder;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code rigscope seed}: bulk-loads history with COPY, then waits for autovacuum to settle. */
@Command(name = "seed", mixinStandardHelpOptions = true,
        description = {"Bulk-load usage events with COPY, then wait for autovacuum to settle.",
            "It loads N events into usage_events for the run's tenant, printing a progress line per "
            + "second, then waits until autovacuum has nothing left to do on the table (docs/sut.md).",
            "Exit 0 when loaded and settled, 1 when the settle timed out or the load failed."})
final class SeedCommand implements Callable<Integer> {

    @Option(names = "--pg", required = true, paramLabel = "URL",
            description = "The database (a role that may INSERT into usage_events): " + PgTarget.URL_FORM + ".")
    String pg;

    @Option(names = "--rows", required = true, paramLabel = "N", description = "Events to load, e.g. 10000000, 500k, 10M.")
    String rows;

    @Option(names = "--tenant", paramLabel = "NAME", description = "The tenant the rows belong to (default: ${DEFAULT-VALUE}).")
    String tenant = Provisioning.DEMO_TENANT;

    @Option(names = "--customers", paramLabel = "N", description = "Customers the rows spread over (default: ${DEFAULT-VALUE}).")
    int customers = 1000;

    @Option(names = "--settle-timeout", paramLabel = "DURATION", defaultValue = "10m",
            description = "Longest wait for autovacuum to settle (default: ${DEFAULT-VALUE}).")
    Duration settleTimeout;

    @Option(names = "--no-settle", description = "Do not wait for autovacuum.")
    boolean noSettle;

    @Override
    public Integer call() {
        PgUrl url = PgTarget.parse(pg);
        long n = parseRows(rows);
        Duration timeout = Durations.positive("--settle-timeout", settleTimeout);
        Seeder.Spec spec;
        try {
            spec = new Seeder.Spec(n, tenant, customers, 100_000);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        System.err.printf("seed: loading %,d events into %s (tenant %s)%n", n, url, tenant);
        Seeder.Progress done = new Seeder(url).load(spec, p -> System.out.printf(
                "seed: %,d / %,d rows (%.0f %%)  %,.0f rows/s  %d s%n", p.rowsLoaded(), p.rowsTotal(),
                p.rowsTotal() == 0 ? 100.0 : 100.0 * p.rowsLoaded() / p.rowsTotal(), p.rowsPerSec(),
                p.elapsed().toSeconds()));
        System.out.printf("seed: loaded %,d rows in %.1f s (%,.0f rows/s)%n", done.rowsCommitted(),
                done.elapsed().toMillis() / 1000.0, done.rowsPerSec());
        if (noSettle) {
            return ExitCodes.OK;
        }
        var settle = new AutovacuumSettle(url, SutContract.EVENTS_TABLE).await(timeout,
                poll -> System.out.println("seed: autovacuum on " + SutContract.EVENTS_TABLE + ": " + poll.describe()));
        if (!settle.settled()) {
            System.err.printf("seed: autovacuum did not settle within %s (%s); the first repeat would measure it%n",
                    Durations.text(settleTimeout), settle.last().describe());
            return ExitCodes.ERROR;
        }
        System.out.printf("seed: autovacuum settled after %.0f s%n", settle.waited().toMillis() / 1000.0);
        return ExitCodes.OK;
    }

    static long parseRows(String text) {
        String t = text.strip().toLowerCase(Locale.ROOT).replace("_", "").replace(",", "");
        long mult = 1;
        if (t.endsWith("k")) {
            mult = 1_000;
        } else if (t.endsWith("m")) {
            mult = 1_000_000;
        } else if (t.endsWith("g") || t.endsWith("b")) {
            mult = 1_000_000_000;
        }
        if (mult > 1) {
            t = t.substring(0, t.length() - 1);
        }
        try {
            long v = Math.multiplyExact(Long.parseLong(t), mult);
            if (v < 0) {
                throw new NumberFormatException();
            }
            return v;
        } catch (NumberFormatException | ArithmeticException e) {
            throw new UsageException("--rows '" + text + "' is not a row count; expected e.g. 10000000, 500k, 10M");
        }
    }
}
