package io.rigscope.sut;

import io.rigscope.sut.auth.ApiKeys.Touch;
import io.rigscope.pg.PgUrl;
import io.rigscope.sut.ingest.EventWriter.InsertMode;
import io.rigscope.sut.schema.Migrations;
import io.rigscope.sut.schema.Provisioning;
import java.util.Objects;

/**
 * How to run the reference SUT. Immutable; each {@code with...} returns a changed copy.
 *
 * @param pg the database; its user is the schema owner (used only by {@code migrate})
 * @param appUser the role the service connects as (default {@value Migrations#APP_ROLE})
 * @param appPassword the app role's password, or null (trust auth); with {@code migrate} it is set on the role
 * @param bindHost the address to listen on (default 127.0.0.1; 0.0.0.0 for a remote generator)
 * @param port the TCP port, 0 for any free one
 * @param touch when api_keys.last_used_at is updated
 * @param insert how a batch becomes SQL
 * @param lossyOneIn 0, or N to silently drop every N-th event while answering as if written (reconciliation test)
 * @param poolSize the app's connection pool size
 * @param migrate apply the schema migrations and provisioning as the owner before serving
 * @param provisioning the tenant, API key and customers {@code migrate} creates
 */
public record SutConfig(PgUrl pg, String appUser, String appPassword, String bindHost, int port, Touch touch,
                        InsertMode insert, int lossyOneIn, int poolSize, boolean migrate, Provisioning provisioning) {

    public SutConfig {
        Objects.requireNonNull(pg, "pg");
        Objects.requireNonNull(appUser, "appUser");
        Objects.requireNonNull(bindHost, "bindHost");
        Objects.requireNonNull(touch, "touch");
        Objects.requireNonNull(insert, "insert");
        Objects.requireNonNull(provisioning, "provisioning");
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("--port " + port + " is out of range 0..65535");
        }
        if (lossyOneIn < 0) {
            throw new IllegalArgumentException("--lossy-one-in must be >= 0, got " + lossyOneIn);
        }
        if (poolSize < 1 || poolSize > 1000) {
            throw new IllegalArgumentException("--pool-size must be 1..1000, got " + poolSize);
        }
    }

    /** Defaults: app role rigscope_app without password, 127.0.0.1, any port, touch per minute, multi-row insert,
     * honest, pool 16, no migration, the demo tenant and key. */
    public static SutConfig defaults(PgUrl pg) {
        return new SutConfig(pg, Migrations.APP_ROLE, null, "127.0.0.1", 0, Touch.PER_MINUTE, InsertMode.MULTI_ROW,
                0, 16, false, Provisioning.demo());
    }

    public SutConfig withApp(String user, String password) {
        return new SutConfig(pg, user, password, bindHost, port, touch, insert, lossyOneIn, poolSize, migrate, provisioning);
    }

    public SutConfig withListen(String host, int newPort) {
        return new SutConfig(pg, appUser, appPassword, host, newPort, touch, insert, lossyOneIn, poolSize, migrate, provisioning);
    }

    public SutConfig withTouch(Touch t) {
        return new SutConfig(pg, appUser, appPassword, bindHost, port, t, insert, lossyOneIn, poolSize, migrate, provisioning);
    }

    public SutConfig withInsert(InsertMode m) {
        return new SutConfig(pg, appUser, appPassword, bindHost, port, touch, m, lossyOneIn, poolSize, migrate, provisioning);
    }

    public SutConfig withLossyOneIn(int n) {
        return new SutConfig(pg, appUser, appPassword, bindHost, port, touch, insert, n, poolSize, migrate, provisioning);
    }

    public SutConfig withPoolSize(int n) {
        return new SutConfig(pg, appUser, appPassword, bindHost, port, touch, insert, lossyOneIn, n, migrate, provisioning);
    }

    public SutConfig withMigrate(boolean m) {
        return new SutConfig(pg, appUser, appPassword, bindHost, port, touch, insert, lossyOneIn, poolSize, m, provisioning);
    }

    public SutConfig withProvisioning(Provisioning p) {
        return new SutConfig(pg, appUser, appPassword, bindHost, port, touch, insert, lossyOneIn, poolSize, migrate, p);
    }

    /** The URL the service connects with: the same database as {@link #pg}, as the app role. */
    public PgUrl appPg() {
        return pg.as(appUser, appPassword);
    }
}
