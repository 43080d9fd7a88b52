package io.rigscope.rig.export;

import io.rigscope.analyzer.decision.Decision;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.net.URI;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import io.rigscope.analyzer.api.Analyzer;
import io.rigscope.analyzer.series.SeriesAnalysis;
import io.rigscope.model.wire.WireRecord;

/**
 * Where a command pushes its decisions: a Prometheus remote-write receiver ({@code --prometheus-rw}), an OTLP/HTTP
 * endpoint ({@code --otlp}), both, or neither (each null when not asked for).
 */
public record ExportTargets(RemoteWrite prometheusRw, Otlp otlp) {

    /** True when there is somewhere to push. */
    public boolean any() {
        return prometheusRw != null || otlp != null;
    }

    /** Starts the sinks (their threads); null when there is nowhere to push. The caller closes it. */
    public Sinks open(PrintStream console) {
        if (!any()) {
            return null;
        }
        List<Consumer<Decision>> sinks = new ArrayList<>();
        List<AutoCloseable> closers = new ArrayList<>();
        if (prometheusRw != null) {
            RemoteWriteSink rw = new RemoteWriteSink(prometheusRw, console);
            sinks.add(rw);
            closers.add(rw);
        }
        if (otlp != null) {
            OtlpSink o = new OtlpSink(otlp, console);
            sinks.add(o);
            closers.add(o);
        }
        return new Sinks(sinks, closers);
    }

    /** The open sinks: each decision to every one; {@link #close} closes each (each says its one line). */
    public static final class Sinks implements Consumer<Decision>, AutoCloseable {
        private final List<Consumer<Decision>> sinks;
        private final List<AutoCloseable> closers;
        private boolean closed;

        private Sinks(List<Consumer<Decision>> sinks, List<AutoCloseable> closers) {
            this.sinks = List.copyOf(sinks);
            this.closers = List.copyOf(closers);
        }

        @Override
        public void accept(Decision decision) {
            sinks.forEach(s -> s.accept(decision));
        }

        @Override
        public synchronized void close() {
            if (closed) {
                return;
            }
            closed = true;
            for (AutoCloseable c : closers) {
                try {
                    c.close();
                } catch (Exception e) {
                    // each sink's close says what it sent; nothing of it may fail the run
                }
            }
        }
    }

    /**
     * Where {@code --otlp} sends: an OTLP/HTTP endpoint's base URL (metrics go to {@code BASE/v1/metrics}, episodes as
     * log records to {@code BASE/v1/logs}, as the OpenTelemetry Collector's {@code otlp} receiver serves them on 4318),
     * and the headers sent with every request.
     *
     * @param base the base URL, http or https, e.g. {@code http://127.0.0.1:4318}
     * @param headers extra request headers, in order
     */
    public record Otlp(URI base, Map<String, String> headers) {

        public Otlp {
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
    public record RemoteWrite(URI url, Map<String, String> headers, String basicAuthUser, String basicAuthPassword,
                                    int bufferSamples, Duration flushTimeout) {

        /** The default buffer: 50,000 samples (about 2,500 closed seconds of one scenario). */
        public static final int DEFAULT_BUFFER_SAMPLES = 50_000;

        public RemoteWrite {
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
        public static RemoteWrite of(URI url) {
            return new RemoteWrite(url, Map.of(), null, null, DEFAULT_BUFFER_SAMPLES, Duration.ofSeconds(10));
        }

        /** This target with the given headers, user and password. */
        public RemoteWrite withAuth(Map<String, String> newHeaders, String user, String password) {
            return new RemoteWrite(url, newHeaders, user, password, bufferSamples, flushTimeout);
        }

        /** This target holding at most {@code samples} while the receiver is behind. */
        public RemoteWrite withBuffer(int samples) {
            return new RemoteWrite(url, headers, basicAuthUser, basicAuthPassword, samples, flushTimeout);
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

    /**
     * For a command that publishes records but runs no analyzer ({@code collect k6}): hands every record on, feeds it
     * to an in-memory analysis of the series (the analyzer's own {@link SeriesAnalysis}, judging repeats as their data
     * completes, as a live analysis does) and pushes what it decides. {@link #finish} judges what is left and closes
     * the sink.
     *
     * <p>Not thread-safe: called on the one thread that produces the records.
     */
    public static final class AnalyzedPush implements Consumer<WireRecord>, AutoCloseable {

        private final Consumer<WireRecord> next;
        private final SeriesAnalysis analysis;
        private final ExportTargets.Sinks sink;
        private boolean judged;

        /** Records go on to {@code next}; the series' decisions go to {@code sink} (closed by {@link #close}). */
        public AnalyzedPush(String series, Consumer<WireRecord> next, ExportTargets.Sinks sink) {
            this.next = next;
            this.analysis = Analyzer.forSeries(series).newAnalysis();
            this.sink = sink;
        }

        @Override
        public void accept(WireRecord record) {
            next.accept(record);
            push(analysis.accept(record));
        }

        /** Judges what the analysis still holds (unless the series was judged already), then closes the sink. */
        @Override
        public void close() {
            if (!judged) {
                push(analysis.finish());
            }
            sink.close();
        }

        private void push(List<Decision> decisions) {
            for (Decision d : decisions) {
                judged |= d instanceof Decision.Series;
                sink.accept(d);
            }
        }
    }
}
