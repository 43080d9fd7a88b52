package io.rigscope.localenv.testing;

import io.rigscope.localenv.postgres.PrivatePostgres;
import java.util.Objects;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A JUnit 5 fixture: a real private PostgreSQL cluster ({@link PrivatePostgres#startTemporary}) for one test class.
 * Register it on a static field, with the class's cluster options if it needs any:
 *
 * <pre>{@code
 * @RegisterExtension
 * static final Postgres pg = new Postgres(PrivatePostgres.Options.defaults().with("autovacuum", "off"));
 * ...
 * pg.psql("postgres", "select 1");
 * }</pre>
 *
 * <p>Lifetime: one cluster per test class. It starts before the class's own {@code @BeforeAll} methods run (so they
 * may migrate or seed it) and is stopped and deleted after its {@code @AfterAll} methods. The field must be static:
 * on an instance field JUnit does not call {@code beforeAll}, and {@link #cluster()} fails.
 *
 * <p>Isolation: the methods of the class share the cluster, its databases, roles, settings and server log, so they
 * must use distinct keys or names (customer ids, table names, database names) where they could meet. Classes never
 * share a cluster: each asks for its own settings, and several write the same tables in the {@code postgres}
 * database and read the whole server log.
 */
public final class Postgres implements BeforeAllCallback, AfterAllCallback {

    private final PrivatePostgres.Options options;
    private volatile PrivatePostgres cluster;

    /** A cluster with {@link PrivatePostgres.Options#defaults()}. */
    public Postgres() {
        this(PrivatePostgres.Options.defaults());
    }

    /** A cluster with these options (extra settings, checksums, WAL segment size). */
    public Postgres(PrivatePostgres.Options options) {
        this.options = Objects.requireNonNull(options, "options");
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        cluster = PrivatePostgres.startTemporary(options);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        PrivatePostgres started = cluster;
        cluster = null;
        if (started != null) {
            started.close();
        }
    }

    /** The running cluster: its log file, data directory, version and the rest of {@link PrivatePostgres}. */
    public PrivatePostgres cluster() {
        PrivatePostgres now = cluster;
        if (now == null) {
            throw new IllegalStateException("the Postgres fixture is not running: register it with @RegisterExtension "
                    + "on a static field and use it from @BeforeAll, test or @AfterAll methods");
        }
        return now;
    }

    /** Runs SQL through psql as the superuser {@code postgres}; see {@link PrivatePostgres#psql}. */
    public String psql(String database, String sql) {
        return cluster().psql(database, sql);
    }

    /** A libpq URL (psql, pgbench, the SUT's {@code --pg}) for a database and user; trust auth, no password. */
    public String libpqUrl(String database, String user) {
        return cluster().libpqUrl(database, user);
    }

    /** An R2DBC URL for a database and user; trust auth, no password. */
    public String r2dbcUrl(String database, String user) {
        return cluster().r2dbcUrl(database, user);
    }
}
