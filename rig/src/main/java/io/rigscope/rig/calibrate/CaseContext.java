package io.rigscope.rig.calibrate;

import io.rigscope.generator.http.ClientLoops;
import io.rigscope.localenv.postgres.PrivatePostgres;
import java.io.PrintStream;
import java.util.Objects;

/**
 * What a case works with besides the load: its private cluster (SQL as the superuser through psql, on database
 * {@code postgres}, where the SUT's tables are) and the console.
 *
 * @param cluster the case's private cluster
 * @param tenant the SUT's tenant name
 * @param console where live lines go
 * @param sutPid the SUT's process id once it runs, 0 before
 * @param generatorLoops the client event loops the case's generator runs on (the case run's, closed by it)
 */
record CaseContext(PrivatePostgres cluster, String tenant, PrintStream console, long sutPid,
                          ClientLoops generatorLoops) {

    public CaseContext {
        Objects.requireNonNull(cluster, "cluster");
        Objects.requireNonNull(tenant, "tenant");
        Objects.requireNonNull(console, "console");
        Objects.requireNonNull(generatorLoops, "generatorLoops");
    }

    /** A context before the SUT runs. */
    public CaseContext(PrivatePostgres cluster, String tenant, PrintStream console, ClientLoops generatorLoops) {
        this(cluster, tenant, console, 0, generatorLoops);
    }

    /** This context with the SUT's process id. */
    public CaseContext withSutPid(long pid) {
        return new CaseContext(cluster, tenant, console, pid, generatorLoops);
    }

    /** Runs SQL as the superuser (psql, one implicit transaction); returns psql's output with its notices. */
    public String sql(String sql) {
        return cluster.psql("postgres", sql);
    }
}
