package io.rigscope.pg;

import io.r2dbc.postgresql.PostgresqlConnectionConfiguration;
import io.r2dbc.postgresql.PostgresqlConnectionFactory;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * Where a PostgreSQL database is and how to connect to it, parsed from a libpq connection URI
 * ({@code postgresql://user[:password]@host[:port]/database[?key=value&...]}); {@code postgres://},
 * {@code r2dbc:postgresql://} and {@code r2dbc:postgres://} mean the same. Port defaults to 5432, user to
 * {@code postgres}, database to the user's name. Every query parameter is kept, in order, and travels on in
 * {@link #libpq()} (psql, pgbench) and {@link #r2dbc()}; {@link #connectionFactory(String)} applies them to an
 * R2DBC connection ({@link PgParameter} lists the parameters and what each does). A parameter rigscope cannot
 * apply is refused when the URL is parsed, naming it: a URL never means less than it says.
 *
 * <p>The password is shown nowhere but in {@link #libpq()} and {@link #r2dbc()}: {@link #toString()} and every
 * error message print {@code ***} in its place ({@link #redact(String)} for raw text).
 *
 * <p>Immutable, thread-safe.
 *
 * <pre>{@code
 * PgUrl url = PgUrl.parse("--pg", "postgresql://owner@db.example/metering?sslmode=require&application_name=ingest");
 * ConnectionFactory f = url.connectionFactory("rigscope-reconcile");   // TLS; application_name "ingest"
 * }</pre>
 *
 * @param host host name or address
 * @param port TCP port
 * @param database database name
 * @param user role to connect as
 * @param password password, or null for none (trust, peer or .pgpass)
 * @param parameters the URL's query parameters in order (keys from {@link PgParameter}), never null
 */
public record PgUrl(String host, int port, String database, String user, String password,
                    Map<String, String> parameters) {

    public PgUrl {
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("the PostgreSQL URL has no host");
        }
        if (port <= 0 || port > 65535) {
            throw new IllegalArgumentException("the PostgreSQL URL's port " + port + " is out of range");
        }
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(user, "user");
        Map<String, String> copy = new LinkedHashMap<>();
        if (parameters != null) {
            parameters.forEach((k, v) -> {
                PgParameter.check(k, v);
                copy.put(k, v);
            });
        }
        parameters = Collections.unmodifiableMap(copy);
    }

    /** A URL without query parameters. */
    public PgUrl(String host, int port, String database, String user, String password) {
        this(host, port, database, user, password, Map.of());
    }

    /**
     * Parses a URL.
     *
     * @param flag the flag or key the text came from, named in the error
     * @throws IllegalArgumentException naming the flag (and the parameter, when one is wrong) when the text is
     *         not such a URL; its message never holds the password
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
                    + "postgresql://user[:password]@host[:port]/database[?sslmode=require&...]");
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
        Map<String, String> parameters = new LinkedHashMap<>();
        String query = uri.getRawQuery();
        if (query != null && !query.isEmpty()) {
            for (String pair : query.split("&")) {
                if (pair.isEmpty()) {
                    continue;
                }
                int eq = pair.indexOf('=');
                String key = decode(eq < 0 ? pair : pair.substring(0, eq));
                String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
                if (parameters.put(key, value) != null) {
                    throw new IllegalArgumentException(flag + " '" + redact(text) + "' names query parameter '" + key
                            + "' twice");
                }
            }
        }
        try {
            return new PgUrl(uri.getHost(), uri.getPort() < 0 ? 5432 : uri.getPort(), database, user, password,
                    parameters);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(flag + " '" + redact(text) + "': " + e.getMessage(), e);
        }
    }

    /** The same database and parameters as another role. */
    public PgUrl as(String otherUser, String otherPassword) {
        return new PgUrl(host, port, database, otherUser, otherPassword, parameters);
    }

    /** The same database and role in another database of the same server. */
    public PgUrl inDatabase(String otherDatabase) {
        return new PgUrl(host, port, otherDatabase, user, password, parameters);
    }

    /** A copy with {@code key} set to {@code value} (replacing it when present, else appended). */
    public PgUrl withParameter(String key, String value) {
        Map<String, String> p = new LinkedHashMap<>(parameters);
        p.put(key, value);
        return new PgUrl(host, port, database, user, password, p);
    }

    /** The URL's {@code sslmode}; {@code disable} when it names none ({@link PgParameter#SSLMODE}). */
    public String sslMode() {
        return parameters.getOrDefault(PgParameter.SSLMODE.key(), "disable");
    }

    /** The {@code application_name} the URL asks for, or null. */
    public String applicationName() {
        return parameters.get(PgParameter.APPLICATION_NAME.key());
    }

    /**
     * The R2DBC connection settings of this URL, for callers that add their own (a statement timeout): host,
     * port, database, user, password, and every query parameter as {@link PgParameter} maps it (sslmode
     * defaults to {@code disable}: see {@link PgParameter#SSLMODE}).
     *
     * @param defaultApplicationName the {@code application_name} when the URL has none
     */
    public PostgresqlConnectionConfiguration.Builder configuration(String defaultApplicationName) {
        var b = PostgresqlConnectionConfiguration.builder()
                .host(host).port(port).database(database).username(user)
                .applicationName(defaultApplicationName);
        if (password != null) {
            b.password(password);
        }
        PgParameter.applyAll(parameters, b);
        return b;
    }

    /**
     * A single-connection factory (not pooled), for tools that open one connection at a time.
     *
     * @param defaultApplicationName the {@code application_name} when the URL has none
     */
    public PostgresqlConnectionFactory connectionFactory(String defaultApplicationName) {
        return new PostgresqlConnectionFactory(configuration(defaultApplicationName).build());
    }

    /** The libpq URL (psql, pgbench), password and query parameters included. */
    public String libpq() {
        return "postgresql://" + enc(user) + (password == null ? "" : ":" + enc(password)) + "@" + hostForUrl() + ":"
                + port + "/" + enc(database) + query(false);
    }

    /** The R2DBC URL of the same database, password and query parameters included. */
    public String r2dbc() {
        return "r2dbc:" + libpq();
    }

    /** The libpq URL with the password as {@code ***}: what logs and consoles show. */
    public String redacted() {
        return "postgresql://" + enc(user) + (password == null ? "" : ":***") + "@" + hostForUrl() + ":" + port + "/"
                + enc(database) + query(true);
    }

    @Override
    public String toString() {
        return redacted();
    }

    /**
     * Raw text with the password of a URL in it replaced by {@code ***}, for messages about text that did not
     * parse: {@code postgresql://u:pw@h} and {@code ?password=pw} both.
     */
    public static String redact(String text) {
        if (text == null) {
            return null;
        }
        return text.replaceAll("(//[^:/@?#]*):[^@/]*@", "$1:***@")
                .replaceAll("([?&](?:ssl)?password=)[^&#]*", "$1***");
    }

    private String query(boolean redactSecrets) {
        if (parameters.isEmpty()) {
            return "";
        }
        return parameters.entrySet().stream()
                .map(e -> enc(e.getKey()) + "=" + (redactSecrets && PgParameter.isSecret(e.getKey())
                        ? "***" : enc(e.getValue())))
                .collect(Collectors.joining("&", "?", ""));
    }

    private String hostForUrl() {
        return host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
    }

    private static String decode(String s) {
        return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
