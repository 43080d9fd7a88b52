package io.rigscope.rig.calibrate;

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
 */
public record CaseContext(PrivatePostgres cluster, String tenant, PrintStream console, long sutPid) {

    public CaseContext {
        Objects.requireNonNull(cluster, "cluster");
        Objects.requireNonNull(tenant, "tenant");
        Objects.requireNonNull(console, "console");
    }

    /** A context before the SUT runs. */
    public CaseContext(PrivatePostgres cluster, String tenant, PrintStream console) {
        this(cluster, tenant, console, 0);
    }

    /** This context with the SUT's process id. */
    public CaseContext withSutPid(long pid) {
        return new CaseContext(cluster, tenant, console, pid);
    }

    /** Runs SQL as the superuser (psql, one implicit transaction); returns psql's output with its notices. */
    public String sql(String sql) {
        return cluster.psql("postgres", sql);
    }
}
