package io.rigscope.rig.cli;

import io.rigscope.rig.export.ExportTargets;
import io.rigscope.rig.options.UsageException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * {@code --prometheus-rw URL} (its headers and basic auth) and {@code --otlp URL}: shared by {@code run}, {@code demo}, {@code analyze}
 * and {@code collect k6} (docs/export.md).
 */
final class ExportOptions {

    @Option(names = "--prometheus-rw", paramLabel = "URL",
            description = {"Push every closed second, freeze-second, episode, repeat verdict and gate to this "
                + "Prometheus remote-write URL as it is decided (latency as native histograms; docs/export.md), "
                + "e.g. http://127.0.0.1:9090/api/v1/write. A receiver that is down costs the run nothing: one line "
                + "at the end says what was not sent."})
    String prometheusRw;

    @Option(names = "--prometheus-rw-header", paramLabel = "NAME=VALUE",
            description = "With --prometheus-rw: a header sent with every request (e.g. X-Scope-OrgID=team). Repeatable.")
    Map<String, String> headers = new LinkedHashMap<>();

    @Option(names = "--prometheus-rw-user", paramLabel = "USER",
            description = "With --prometheus-rw: basic-auth user; the password is read from --prometheus-rw-password-env.")
    String user;

    @Option(names = "--prometheus-rw-password-env", paramLabel = "VAR", defaultValue = "RIGSCOPE_PROMETHEUS_RW_PASSWORD",
            description = "With --prometheus-rw-user: the environment variable holding the password (default ${DEFAULT-VALUE}).")
    String passwordEnv;

    @Option(names = "--otlp", paramLabel = "URL",
            description = {"Send the same figures as OpenTelemetry metrics (latency as exponential histograms) and each "
                + "episode as a log record over OTLP/HTTP to this base URL (BASE/v1/metrics, BASE/v1/logs), e.g. "
                + "http://127.0.0.1:4318 (an OpenTelemetry Collector's otlp receiver)."})
    String otlp;

    @Option(names = "--otlp-header", paramLabel = "NAME=VALUE",
            description = "With --otlp: a header sent with every request. Repeatable.")
    Map<String, String> otlpHeaders = new LinkedHashMap<>();

    /**
     * Where to push: {@code --prometheus-rw} (else {@code prometheusRwFromFile}, a series file's
     * {@code export.prometheus_rw}, or null) and {@code --otlp}. A bad value exits 2 naming the flag.
     */
    public ExportTargets targets(String prometheusRwFromFile) {
        return new ExportTargets(target(prometheusRwFromFile), otlpTarget());
    }

    private ExportTargets.Otlp otlpTarget() {
        if (otlp == null) {
            if (!otlpHeaders.isEmpty()) {
                throw new UsageException("--otlp-header needs --otlp");
            }
            return null;
        }
        checkHeaders("--otlp-header", otlpHeaders);
        try {
            return new ExportTargets.Otlp(new URI(otlp.strip()), otlpHeaders);
        } catch (URISyntaxException e) {
            throw new UsageException("--otlp: '" + otlp + "' is not a URL: " + e.getMessage());
        } catch (IllegalArgumentException e) {
            throw new UsageException("--otlp: " + e.getMessage());
        }
    }

    private static void checkHeaders(String flag, Map<String, String> headers) {
        for (Map.Entry<String, String> h : headers.entrySet()) {
            try {
                java.net.http.HttpRequest.newBuilder(URI.create("http://127.0.0.1/")).header(h.getKey(), h.getValue());
            } catch (IllegalArgumentException e) {
                throw new UsageException(flag + ": '" + h.getKey() + "' cannot be sent: " + e.getMessage());
            }
        }
    }

    /**
     * The parsed target: the flag's, else {@code fromFile} (a series file's {@code export.prometheus_rw}), else
     * null. A bad value exits 2 naming the flag.
     */
    ExportTargets.RemoteWrite target(String fromFile) {
        String url = prometheusRw != null ? prometheusRw : fromFile;
        if (url == null) {
            if (!headers.isEmpty() || user != null) {
                throw new UsageException((user != null ? "--prometheus-rw-user" : "--prometheus-rw-header")
                        + " needs --prometheus-rw");
            }
            return null;
        }
        String flag = prometheusRw != null ? "--prometheus-rw" : "export.prometheus_rw";
        URI uri;
        try {
            uri = new URI(url.strip());
        } catch (URISyntaxException e) {
            throw new UsageException(flag + ": '" + url + "' is not a URL: " + e.getMessage());
        }
        String password = null;
        if (user != null) {
            password = System.getenv(passwordEnv);
            if (password == null) {
                throw new UsageException("--prometheus-rw-user: the environment variable " + passwordEnv
                        + " (--prometheus-rw-password-env) is not set");
            }
        }
        checkHeaders("--prometheus-rw-header", headers);
        try {
            return ExportTargets.RemoteWrite.of(uri).withAuth(headers, user, password);
        } catch (IllegalArgumentException e) {
            throw new UsageException(flag + ": " + e.getMessage());
        }
    }
}
