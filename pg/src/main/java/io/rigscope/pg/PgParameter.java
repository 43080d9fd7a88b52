package io.rigscope.pg;

import io.r2dbc.postgresql.PostgresqlConnectionConfiguration;
import io.r2dbc.postgresql.client.SSLMode;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The query parameters a rigscope PostgreSQL URL may carry: libpq's names and meanings, each applied to the
 * R2DBC connection rigscope opens and passed unchanged to libpq tools (psql, pgbench). One table: key, what it
 * does, how it is checked and applied. A key not in this table is refused when the URL is parsed.
 */
public enum PgParameter {

    /**
     * {@code disable|allow|prefer|require|verify-ca|verify-full}. Absent: {@code disable} on rigscope's R2DBC
     * connections (r2dbc-postgresql's default), unlike libpq's {@code prefer}: setting up TLS reads
     * {@code /dev/urandom} on the driver's event loop, which a plain-text database should not pay. Name it.
     */
    SSLMODE("sslmode", "TLS: disable (default here; libpq's is prefer), allow, prefer, require, verify-ca, verify-full") {
        @Override
        void check(String value) {
            sslMode(value);
        }

        @Override
        void apply(String value, PostgresqlConnectionConfiguration.Builder b) {
            b.sslMode(sslMode(value));
        }
    },
    /** PEM file of the certificate authorities the server's certificate must chain to (verify-ca/verify-full). */
    SSLROOTCERT("sslrootcert", "PEM file of the CA certificates (e.g. RDS's global-bundle.pem)") {
        @Override
        void apply(String value, PostgresqlConnectionConfiguration.Builder b) {
            b.sslRootCert(value);
        }
    },
    /** Client certificate (PEM) for certificate authentication. */
    SSLCERT("sslcert", "client certificate file (PEM)") {
        @Override
        void apply(String value, PostgresqlConnectionConfiguration.Builder b) {
            b.sslCert(value);
        }
    },
    /** Client key (PEM) for certificate authentication. */
    SSLKEY("sslkey", "client key file (PEM)") {
        @Override
        void apply(String value, PostgresqlConnectionConfiguration.Builder b) {
            b.sslKey(value);
        }
    },
    /** Password of the client key; redacted like the URL's password. */
    SSLPASSWORD("sslpassword", "password of the client key (redacted like the password)") {
        @Override
        void apply(String value, PostgresqlConnectionConfiguration.Builder b) {
            b.sslPassword(value);
        }
    },
    /** The session's name in pg_stat_activity; a caller's own name applies only when the URL has none. */
    APPLICATION_NAME("application_name", "the session's name in pg_stat_activity (else the caller's own)") {
        @Override
        void apply(String value, PostgresqlConnectionConfiguration.Builder b) {
            b.applicationName(value);
        }
    },
    /** Seconds to wait for a connection; 0 or absent: 10 s (libpq waits forever). */
    CONNECT_TIMEOUT("connect_timeout", "seconds to wait for a connection (default 10)") {
        @Override
        void check(String value) {
            seconds(value);
        }

        @Override
        void apply(String value, PostgresqlConnectionConfiguration.Builder b) {
            long s = seconds(value);
            b.connectTimeout(Duration.ofSeconds(s == 0 ? DEFAULT_CONNECT_TIMEOUT_SEC : s));
        }
    },
    /** Server settings at connection start, {@code -c name=value} (several separated by spaces). */
    OPTIONS("options", "server settings at start, e.g. -c statement_timeout=5s -c search_path=app") {
        @Override
        void check(String value) {
            settings(value);
        }

        @Override
        void apply(String value, PostgresqlConnectionConfiguration.Builder b) {
            b.options(settings(value));
        }
    };

    /** The connect timeout when the URL gives none. */
    public static final long DEFAULT_CONNECT_TIMEOUT_SEC = 10;

    private final String key;
    private final String doc;

    PgParameter(String key, String doc) {
        this.key = key;
        this.doc = doc;
    }

    /** The parameter's name in the URL. */
    public String key() {
        return key;
    }

    /** One line on what it does. */
    public String doc() {
        return doc;
    }

    /** The parameter named {@code key}, if rigscope knows it. */
    public static Optional<PgParameter> of(String key) {
        return Arrays.stream(values()).filter(p -> p.key.equals(key)).findFirst();
    }

    /** Every key, comma-separated, for messages. */
    public static String keys() {
        return Arrays.stream(values()).map(PgParameter::key).collect(Collectors.joining(", "));
    }

    void check(String value) {
        if (value.isEmpty()) {
            throw new IllegalArgumentException("query parameter '" + key + "' is empty");
        }
    }

    abstract void apply(String value, PostgresqlConnectionConfiguration.Builder b);

    static boolean isSecret(String key) {
        return SSLPASSWORD.key.equals(key);
    }

    /** Checks one parameter; an unknown key or a bad value is an IllegalArgumentException naming it. */
    static void check(String key, String value) {
        PgParameter p = of(key).orElseThrow(() -> new IllegalArgumentException("query parameter '" + key
                + "' is not one rigscope can apply to its connections; it knows: " + keys()));
        try {
            p.check(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage().startsWith("query parameter") || e.getMessage().startsWith(key) ? e.getMessage()
                    : "query parameter " + key + ": " + e.getMessage(), e);
        }
    }

    /** The defaults first (sslmode disable, 10 s connect timeout), then every parameter of the URL. */
    static void applyAll(Map<String, String> parameters, PostgresqlConnectionConfiguration.Builder b) {
        b.sslMode(SSLMode.DISABLE);
        b.connectTimeout(Duration.ofSeconds(DEFAULT_CONNECT_TIMEOUT_SEC));
        parameters.forEach((k, v) -> of(k).orElseThrow().apply(v, b));
    }

    static SSLMode sslMode(String value) {
        return switch (value) {
            case "disable" -> SSLMode.DISABLE;
            case "allow" -> SSLMode.ALLOW;
            case "prefer" -> SSLMode.PREFER;
            case "require" -> SSLMode.REQUIRE;
            case "verify-ca" -> SSLMode.VERIFY_CA;
            case "verify-full" -> SSLMode.VERIFY_FULL;
            default -> throw new IllegalArgumentException("sslmode '" + value + "' is not one of disable, allow, "
                    + "prefer, require, verify-ca, verify-full");
        };
    }

    private static long seconds(String value) {
        try {
            long s = Long.parseLong(value.strip());
            if (s < 0) {
                throw new NumberFormatException();
            }
            return s;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("connect_timeout '" + value + "' is not a whole number of seconds >= 0");
        }
    }

    /** {@code -c a=b -c c=d}, {@code -ca=b} or {@code --a=b}, as libpq's {@code options} takes them. */
    static Map<String, String> settings(String value) {
        Map<String, String> out = new LinkedHashMap<>();
        String[] tokens = value.strip().split("\\s+");
        for (int i = 0; i < tokens.length; i++) {
            String t = tokens[i];
            String setting;
            if (t.equals("-c") && i + 1 < tokens.length) {
                setting = tokens[++i];
            } else if (t.startsWith("-c") && t.length() > 2) {
                setting = t.substring(2);
            } else if (t.startsWith("--") && t.length() > 2) {
                setting = t.substring(2).replace('-', '_');
            } else {
                throw new IllegalArgumentException("options '" + value + "' holds '" + t + "'; expected -c name=value");
            }
            int eq = setting.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("options '" + value + "' holds '" + setting
                        + "'; expected name=value");
            }
            out.put(setting.substring(0, eq).toLowerCase(Locale.ROOT), setting.substring(eq + 1));
        }
        return out;
    }
}
