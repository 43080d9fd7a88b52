package io.rigscope.rig.cli;

import io.rigscope.rig.bringup.BringUpChecks;
import io.rigscope.rig.options.ExitCodes;
import io.rigscope.rig.options.PgTarget;
import io.rigscope.rig.options.UsageException;
import io.rigscope.sut.schema.Migrations;
import io.rigscope.sut.schema.Provisioning;
import java.net.URI;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code rigscope bring-up}: the checks a series must pass before load is offered. */
@Command(name = "bring-up", mixinStandardHelpOptions = true,
        description = {"Run the bring-up checks; refuse to continue when one fails.",
            "Checks (docs/protocol.md): schema migrated and clean; the app role can read and write "
            + "what it needs; one POSTed batch is answered 2xx and really stored.",
            "Prints one line per check; exit 0 when all pass, 1 when the run must not go on."})
final class BringUpCommand implements Callable<Integer> {

    @Option(names = "--pg", required = true, paramLabel = "URL", description = "The database, as its owner: " + PgTarget.URL_FORM + ".")
    String pg;

    @Option(names = "--sut", required = true, paramLabel = "URL", description = "The SUT's base URL, e.g. http://127.0.0.1:8080.")
    String sut;

    @Option(names = "--app-user", paramLabel = "ROLE", description = "The SUT's role (default: ${DEFAULT-VALUE}).")
    String appUser = Migrations.APP_ROLE;

    @Option(names = "--app-password", paramLabel = "PASSWORD", defaultValue = "${env:RIGSCOPE_APP_PASSWORD}",
            description = "The app role's password (default: $RIGSCOPE_APP_PASSWORD, else none).")
    String appPassword;

    @Option(names = "--api-key", paramLabel = "KEY", description = "Bearer token (default: ${DEFAULT-VALUE}).")
    String apiKey = Provisioning.DEMO_API_KEY;

    @Option(names = "--batch", paramLabel = "N", description = "Events in the write-through batch (default: ${DEFAULT-VALUE}).")
    int batch = BringUpChecks.DEFAULT_BATCH_EVENTS;

    @Option(names = "--count-sql", paramLabel = "SQL",
            description = "SQL counting the batch's rows; may use :key_prefix (default: the reference SUT's).")
    String countSql = BringUpChecks.DEFAULT_COUNT_SQL;

    @Override
    public Integer call() {
        URI base;
        try {
            base = URI.create(sut.strip());
            if (base.getHost() == null || !(sut.startsWith("http://") || sut.startsWith("https://"))) {
                throw new IllegalArgumentException("no host");
            }
        } catch (IllegalArgumentException e) {
            throw new UsageException("--sut '" + sut + "' is not an http(s) URL like http://127.0.0.1:8080");
        }
        BringUpChecks.Spec spec;
        try {
            spec = new BringUpChecks.Spec(PgTarget.parse(pg), appUser, appPassword, base, apiKey, batch, countSql);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        List<BringUpChecks.CheckResult> results = new BringUpChecks(spec).run();
        results.forEach(System.out::println);
        if (BringUpChecks.CheckResult.allPassed(results)) {
            return ExitCodes.OK;
        }
        System.err.println("bring-up: refusing to continue; fix the failures above");
        return ExitCodes.ERROR;
    }
}
