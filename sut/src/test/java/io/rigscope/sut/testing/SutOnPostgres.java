package io.rigscope.sut.testing;

import io.rigscope.localenv.postgres.PrivatePostgres;
import io.rigscope.localenv.testing.Postgres;
import io.rigscope.pg.PgUrl;
import io.rigscope.sut.RunningSut;
import io.rigscope.sut.Sut;
import io.rigscope.sut.SutConfig;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A JUnit 5 fixture: the reference SUT's schema on a real private PostgreSQL cluster, migrated and provisioned
 * (tenant {@code demo}, key {@code rigscope-demo-key}, 1,000 customers) before the class's {@code @BeforeAll}
 * methods run, the cluster thrown away after its {@code @AfterAll}. Each test starts the SUT it needs:
 *
 * <pre>{@code
 * @RegisterExtension
 * static final SutOnPostgres db = new SutOnPostgres();
 * ...
 * try (RunningSut sut = db.start(c -> c.withLossyOneIn(1000))) { ... sut.baseUri() ... }
 * db.psql("select count(*) from usage_events");
 * }</pre>
 *
 * <p>The field must be static. Methods of a class share the cluster and its rows: use distinct customers or keys.
 */
public final class SutOnPostgres implements BeforeAllCallback, AfterAllCallback {

    private final Postgres postgres;
    private volatile PgUrl owner;

    /** A cluster with {@link PrivatePostgres.Options#defaults()}. */
    public SutOnPostgres() {
        this(PrivatePostgres.Options.defaults());
    }

    /** A cluster with these options. */
    public SutOnPostgres(PrivatePostgres.Options options) {
        this.postgres = new Postgres(options);
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        postgres.beforeAll(context);
        PgUrl url = PgUrl.parse("test", postgres.libpqUrl("postgres", "postgres"));
        Sut.start(SutConfig.defaults(url).withMigrate(true)).close();
        owner = url;
    }

    @Override
    public void afterAll(ExtensionContext context) {
        owner = null;
        postgres.afterAll(context);
    }

    /** The database as its owner ({@code postgres}, trust auth). */
    public PgUrl owner() {
        PgUrl now = owner;
        if (now == null) {
            throw new IllegalStateException("the SutOnPostgres fixture is not running: register it with "
                    + "@RegisterExtension on a static field");
        }
        return now;
    }

    /** The SUT with default settings (app role, any free port, per-minute touch, multi-row insert), started. */
    public RunningSut start() {
        return start(UnaryOperator.identity());
    }

    /** The SUT with {@code configure} applied to the defaults, started. Close it. */
    public RunningSut start(UnaryOperator<SutConfig> configure) {
        return Sut.start(configure.apply(SutConfig.defaults(owner())));
    }

    /** The cluster itself (log file, data directory, other databases). */
    public PrivatePostgres cluster() {
        return postgres.cluster();
    }

    /** Runs SQL through psql as {@code postgres} in database {@code postgres}. */
    public String psql(String sql) {
        return postgres.psql("postgres", sql);
    }

    /** A libpq URL for another database or user of the cluster. */
    public String libpqUrl(String database, String user) {
        return postgres.libpqUrl(database, user);
    }
}
