package io.rigscope.sut.db;

import io.r2dbc.pool.ConnectionPool;
import io.r2dbc.pool.ConnectionPoolConfiguration;
import io.r2dbc.postgresql.PostgresqlConnectionConfiguration;
import io.r2dbc.postgresql.PostgresqlConnectionFactory;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;

/**
 * Where a PostgreSQL database is and who connects to it, parsed from a libpq-style URL
 * ({@code postgresql://user[:password]@host[:port]/database}); {@code postgres://} and
 * {@code r2dbc:postgresql://} are accepted too. Port defaults to 5432, user to {@code postgres}, database to
 * the user's name. Query parameters are ignored.
 *
 * <p>{@link #toString()} never shows the password.
 *
 * @param host host name or address
 * @param port TCP port
 * @param database database name
 * @param user role to connect as
 * @param password password, or null for none (trust, peer or .pgpass)
 */
public record PgUrl(String host, int port, String database, String user, String password) {

    public PgUrl {
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("the PostgreSQL URL has no host");
        }
        if (port <= 0 || port > 65535) {
            throw new IllegalArgumentException("the PostgreSQL URL's port " + port + " is out of range");
        }
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(user, "user");
    }

    /**
     * Parses a URL.
     *
     * @param flag the flag or key the text came from, named in the error
     * @throws IllegalArgumentException naming the flag when the text is not such a URL
     */
    public static PgUrl parse(String flag, String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException(flag + " is empty; expected postgresql://user@host:port/database");
        }
        String t = text.strip();
        if (t.startsWith("r2dbc:")) {
            t = t.substring("r2dbc:".length());
        }
        if (!t.startsWith("postgresql://") && !t.startsWith("postgres://")) {
            throw new IllegalArgumentException(flag + " '" + redact(text) + "' is not a PostgreSQL URL; expected "
                    + "postgresql://user[:password]@host[:port]/database");
        }
        URI uri;
        try {
            uri = new URI(t);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(flag + " '" + redact(text) + "' is not a URL: " + e.getReason());
        }
        if (uri.getHost() == null) {
            throw new IllegalArgumentException(flag + " '" + redact(text) + "' has no host");
        }
        String user = "postgres";
        String password = null;
        String info = uri.getRawUserInfo();
        if (info != null && !info.isEmpty()) {
            int colon = info.indexOf(':');
            user = decode(colon < 0 ? info : info.substring(0, colon));
            password = colon < 0 ? null : decode(info.substring(colon + 1));
        }
        String path = uri.getPath() == null ? "" : uri.getPath();
        String database = path.startsWith("/") ? path.substring(1) : path;
        if (database.isEmpty()) {
            database = user;
        }
        return new PgUrl(uri.getHost(), uri.getPort() < 0 ? 5432 : uri.getPort(), database, user, password);
    }

    /** The same database as another role. */
    public PgUrl as(String otherUser, String otherPassword) {
        return new PgUrl(host, port, database, otherUser, otherPassword);
    }

    /** A single-connection factory (not pooled), for tools that open one connection at a time. */
    public PostgresqlConnectionFactory connectionFactory(String applicationName) {
        var b = PostgresqlConnectionConfiguration.builder()
                .host(host).port(port).database(database).username(user)
                .applicationName(applicationName)
                .connectTimeout(Duration.ofSeconds(10));
        if (password != null) {
            b.password(password);
        }
        return new PostgresqlConnectionFactory(b.build());
    }

    /** A connection pool of up to {@code maxSize} connections. Close it when done. */
    public ConnectionPool pool(String applicationName, int maxSize) {
        if (maxSize < 1) {
            throw new IllegalArgumentException("pool size must be at least 1, got " + maxSize);
        }
        return new ConnectionPool(ConnectionPoolConfiguration.builder(connectionFactory(applicationName))
                .initialSize(Math.min(2, maxSize))
                .maxSize(maxSize)
                .maxAcquireTime(Duration.ofSeconds(30))
                .maxIdleTime(Duration.ofMinutes(30))
                .build());
    }

    /** The libpq URL (psql, pgbench), password included when there is one. */
    public String libpq() {
        String auth = enc(user) + (password == null ? "" : ":" + enc(password));
        return "postgresql://" + auth + "@" + hostForUrl() + ":" + port + "/" + enc(database);
    }

    /** The R2DBC URL of the same database (what the collectors connect with), password included. */
    public String r2dbc() {
        return "r2dbc:" + libpq();
    }

    private String hostForUrl() {
        return host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
    }

    @Override
    public String toString() {
        return "postgresql://" + user + (password == null ? "" : ":***") + "@" + hostForUrl() + ":" + port + "/" + database;
    }

    private static String redact(String text) {
        return text.replaceAll("(//[^:/@]+):[^@]*@", "$1:***@");
    }

    private static String decode(String s) {
        return URLDecoder.decode(s, StandardCharsets.UTF_8);
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
