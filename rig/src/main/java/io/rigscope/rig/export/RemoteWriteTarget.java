package io.rigscope.rig.export;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Where and how to push: a Prometheus remote-write endpoint ({@code --prometheus-rw}), the extra headers sent with
 * every request ({@code --prometheus-rw-header}, e.g. a tenant header), basic auth, the buffer's bound and how long
 * the end of a run may wait for the last samples.
 *
 * @param url the receiver's write URL, http or https (Prometheus: {@code http://HOST:9090/api/v1/write})
 * @param headers extra request headers, in order
 * @param basicAuthUser the basic-auth user, or null for none
 * @param basicAuthPassword its password (null with no user)
 * @param bufferSamples samples held while the receiver is slow or down; past it, new samples are dropped and counted
 * @param flushTimeout how long closing waits for the buffered samples while the receiver answers
 */
public record RemoteWriteTarget(URI url, Map<String, String> headers, String basicAuthUser, String basicAuthPassword,
                                int bufferSamples, Duration flushTimeout) {

    /** The default buffer: 50,000 samples (about 2,500 closed seconds of one scenario). */
    public static final int DEFAULT_BUFFER_SAMPLES = 50_000;

    public RemoteWriteTarget {
        Objects.requireNonNull(url, "url");
        if (!"http".equals(url.getScheme()) && !"https".equals(url.getScheme()) || url.getHost() == null) {
            throw new IllegalArgumentException("'" + url + "' is not an http(s) URL with a host");
        }
        headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers == null ? Map.of() : headers));
        if (basicAuthUser == null && basicAuthPassword != null) {
            throw new IllegalArgumentException("a basic-auth password needs a user");
        }
        if (bufferSamples < 1) {
            throw new IllegalArgumentException("the buffer must hold at least 1 sample, was " + bufferSamples);
        }
        Objects.requireNonNull(flushTimeout, "flushTimeout");
    }

    /** A target with no headers, no auth, the default buffer and a 10 s flush. */
    public static RemoteWriteTarget of(URI url) {
        return new RemoteWriteTarget(url, Map.of(), null, null, DEFAULT_BUFFER_SAMPLES, Duration.ofSeconds(10));
    }

    /** This target with the given headers, user and password. */
    public RemoteWriteTarget withAuth(Map<String, String> newHeaders, String user, String password) {
        return new RemoteWriteTarget(url, newHeaders, user, password, bufferSamples, flushTimeout);
    }

    /** This target holding at most {@code samples} while the receiver is behind. */
    public RemoteWriteTarget withBuffer(int samples) {
        return new RemoteWriteTarget(url, headers, basicAuthUser, basicAuthPassword, samples, flushTimeout);
    }

    /** The {@code Authorization} header value for basic auth, or null. */
    String authorization() {
        if (basicAuthUser == null) {
            return null;
        }
        String pair = basicAuthUser + ":" + (basicAuthPassword == null ? "" : basicAuthPassword);
        return "Basic " + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8));
    }

    /** The URL without user info or query (what a console line may show). */
    public String shown() {
        return url.getScheme() + "://" + url.getHost() + (url.getPort() < 0 ? "" : ":" + url.getPort())
                + (url.getPath() == null ? "" : url.getPath());
    }
}
