package io.rigscope.rig.options;

import io.rigscope.localenv.postgres.PrivatePostgres;
import io.rigscope.pg.PgUrl;

/**
 * The database a command works on: the {@code --pg} URL when given, else (for commands that allow it) a
 * private cluster started from the local binaries and thrown away on {@link #close()}. Never changes the
 * settings of a server it did not start.
 */
public final class PgTarget implements AutoCloseable {

    /** What {@code --pg} takes, in every command's help. */
    public static final String URL_FORM = "postgresql://user[:pw]@host:port/db[?sslmode=require&...] "
            + "(postgres:// and r2dbc:postgresql:// too; query parameters in docs/operations.md)";

    private final PgUrl url;
    private final PrivatePostgres owned;

    private PgTarget(PgUrl url, PrivatePostgres owned) {
        this.url = url;
        this.owned = owned;
    }

    /**
     * Parses {@code --pg} as every command takes it: a libpq URL ({@code postgresql://}, {@code postgres://}) or
     * an R2DBC one ({@code r2dbc:postgresql://}), query parameters kept ({@link PgUrl}); a bad URL is a usage
     * error (exit 2) naming the flag.
     */
    public static PgUrl parse(String text) {
        return parse("--pg", text);
    }

    /** Parses a URL from another flag or config key, a usage error naming it. */
    public static PgUrl parse(String flag, String text) {
        try {
            return PgUrl.parse(flag, text);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }

    /** The given URL, or a fresh private cluster when {@code text} is null. */
    public static PgTarget resolve(String text) {
        return resolve(text, PrivatePostgres.Options.defaults());
    }

    /** The given URL (from {@code flag}, named in errors), or a fresh private cluster when {@code text} is null. */
    public static PgTarget resolve(String flag, String text) {
        return text != null ? new PgTarget(parse(flag, text), null) : resolve(null);
    }

    /** The given URL, or a fresh private cluster with these settings when {@code text} is null. */
    public static PgTarget resolve(String text, PrivatePostgres.Options options) {
        if (text != null) {
            return new PgTarget(parse(text), null);
        }
        long startNs = System.nanoTime();
        PrivatePostgres pg = PrivatePostgres.startTemporary(options);
        System.err.printf("postgres: started a private PostgreSQL %d cluster%s at %s in %.1f s "
                + "(thrown away on exit; log %s)%n", pg.majorVersion(),
                pg.isEmbedded() ? " (embedded binaries from Maven Central)" : "", pg.libpqUrl("postgres", "postgres"),
                (System.nanoTime() - startNs) / 1e9, pg.logFile());
        return new PgTarget(PgUrl.parse("private", pg.libpqUrl("postgres", "postgres")), pg);
    }

    public PgUrl url() {
        return url;
    }

    /** The private cluster this command started, if it did. */
    public java.util.Optional<PrivatePostgres> cluster() {
        return java.util.Optional.ofNullable(owned);
    }

    /** True when this command started the cluster (so it must be migrated and may be configured). */
    public boolean owned() {
        return owned != null;
    }

    @Override
    public void close() {
        if (owned != null) {
            owned.close();
        }
    }
}
