package io.rigscope.rig.cli;

import io.rigscope.rig.export.RemoteWriteTarget;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * {@code --prometheus-rw URL} and its headers and basic auth: shared by {@code run}, {@code demo}, {@code analyze}
 * and {@code collect k6} (docs/export.md).
 */
public final class ExportOptions {

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

    /** The parsed target, or null without {@code --prometheus-rw}; a bad value exits 2 naming the flag. */
    public RemoteWriteTarget target() {
        return target(null);
    }

    /**
     * The parsed target: the flag's, else {@code fromFile} (a series file's {@code export.prometheus_rw}), else
     * null. A bad value exits 2 naming the flag.
     */
    public RemoteWriteTarget target(String fromFile) {
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
        for (Map.Entry<String, String> h : headers.entrySet()) {
            try {
                java.net.http.HttpRequest.newBuilder(URI.create("http://127.0.0.1/")).header(h.getKey(), h.getValue());
            } catch (IllegalArgumentException e) {
                throw new UsageException("--prometheus-rw-header: '" + h.getKey() + "' cannot be sent: " + e.getMessage());
            }
        }
        try {
            return RemoteWriteTarget.of(uri).withAuth(headers, user, password);
        } catch (IllegalArgumentException e) {
            throw new UsageException(flag + ": " + e.getMessage());
        }
    }
}
