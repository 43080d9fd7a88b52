package io.rigscope.rig.export;

import java.net.URI;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Where {@code --otlp} sends: an OTLP/HTTP endpoint's base URL (metrics go to {@code BASE/v1/metrics}, episodes as
 * log records to {@code BASE/v1/logs}, as the OpenTelemetry Collector's {@code otlp} receiver serves them on 4318),
 * and the headers sent with every request.
 *
 * @param base the base URL, http or https, e.g. {@code http://127.0.0.1:4318}
 * @param headers extra request headers, in order
 */
public record OtlpTarget(URI base, Map<String, String> headers) {

    public OtlpTarget {
        Objects.requireNonNull(base, "base");
        if (!"http".equals(base.getScheme()) && !"https".equals(base.getScheme()) || base.getHost() == null) {
            throw new IllegalArgumentException("'" + base + "' is not an http(s) URL with a host");
        }
        headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers == null ? Map.of() : headers));
    }

    /** {@code BASE/v1/SIGNAL}, whatever trailing slash the base has. */
    String endpoint(String signal) {
        String b = base.toString();
        return (b.endsWith("/") ? b.substring(0, b.length() - 1) : b) + "/v1/" + signal;
    }

    /** The base without user info or query (what a console line may show). */
    String shown() {
        return base.getScheme() + "://" + base.getHost() + (base.getPort() < 0 ? "" : ":" + base.getPort());
    }
}
