package io.rigscope.rig.dashboard;

import io.rigscope.wire.kafka.KafkaClients;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.rigscope.analyzer.report.SeriesPage;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.model.codec.WireLine;
import io.rigscope.model.topic.Topic;
import io.rigscope.model.wire.WireRecord;
import io.rigscope.wire.WireSource;
import io.rigscope.wire.host.HostPort;
import java.net.InetSocketAddress;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import org.reactivestreams.Publisher;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;

/**
 * The live dashboard, served by rigscope itself on Reactor Netty: an index of every series on the broker (live
 * first, then archived, each with its verdict so far), one page per series fed by server-sent events (its
 * {@code rig.verdicts} and the telemetry topics the page plots, from the beginning, so opening a finished series
 * replays it), and {@code /metrics} in the Prometheus text format. The page is {@link SeriesPage}, the HTML
 * report's own.
 *
 * <pre>{@code
 * try (Dashboard d = Dashboard.start(bootstrap, new WireCodec(), Dashboard.Options.local())) {
 *     System.out.println("dashboard: " + d.url());
 * }
 * }</pre>
 *
 * <p>Binds 127.0.0.1 unless told otherwise. With a token, every request must carry it ({@code ?token=T}, or
 * {@code Authorization: Bearer T}); the pages pass it on to their event streams. Kafka is read on the
 * {@link WireSource}'s own threads, never on an event loop. This class is the dashboard's composition root: it
 * subscribes to the index's reading and stops it on {@link #close}.
 */
public final class Dashboard implements AutoCloseable {

    /** The page's topics: the decisions and the telemetry it draws. */
    static final EnumSet<Topic> PAGE_TOPICS = pageTopics();
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'")
            .withZone(ZoneOffset.UTC);

    /**
     * Where the dashboard listens and who may read it.
     *
     * @param listen host and port (port 0: any free one)
     * @param token the token every request must carry, or null for none
     */
    public record Options(InetSocketAddress listen, String token) {
        public Options {
            Objects.requireNonNull(listen, "listen");
            if (token != null && token.isBlank()) {
                throw new IllegalArgumentException("token must not be blank");
            }
        }

        /** 127.0.0.1:8088, no token. */
        public static Options local() {
            return new Options(InetSocketAddress.createUnresolved("127.0.0.1", 8088), null);
        }

        /**
         * Parses {@code HOST:PORT}, {@code [IPV6]:PORT}, {@code :PORT} or {@code PORT} (host 127.0.0.1) through
         * {@link HostPort#parseListen}.
         *
         * @throws IllegalArgumentException naming what is wrong
         */
        public static InetSocketAddress parseListen(String text) {
            return HostPort.parseListen(text, "127.0.0.1").unresolved();
        }
    }

    private static EnumSet<Topic> pageTopics() {
        EnumSet<Topic> topics = EnumSet.of(Topic.VERDICTS);
        topics.addAll(SeriesPage.TELEMETRY_TOPICS);
        return topics;
    }

    private final DisposableServer server;
    private final Disposable indexing;
    private final SeriesIndex index;

    private Dashboard(DisposableServer server, Disposable indexing, SeriesIndex index) {
        this.server = server;
        this.indexing = indexing;
        this.index = index;
    }

    /** Starts following the broker's series and binds the server; returns once it listens. */
    public static Dashboard start(String bootstrap, WireCodec codec, Options options) {
        return start(KafkaClients.of(bootstrap), codec, options);
    }

    /** {@link #start(String, WireCodec, Options)} with the user's Kafka client properties. */
    public static Dashboard start(KafkaClients bootstrap, WireCodec codec, Options options) {
        Objects.requireNonNull(bootstrap, "bootstrap");
        Objects.requireNonNull(codec, "codec");
        Objects.requireNonNull(options, "options");
        SeriesIndex index = new SeriesIndex();
        WireSource source = new WireSource(bootstrap, codec);
        Disposable indexing = source.records(new WireSource.Spec(EnumSet.of(Topic.MARKERS, Topic.VERDICTS), null,
                true, true), failed -> System.err.println("dashboard: a record on " + failed.deadLetter().topicName()
                        + " could not be read and is not indexed: " + failed.deadLetter().reason()))
                .subscribe(index::accept, e -> System.err.println("dashboard: the series index stopped following the "
                        + "broker (pages still serve what it holds): " + e));
        Routes routes = new Routes(source, codec, index, options.token());
        DisposableServer server;
        try {
            server = HttpServer.create()
                    .host(options.listen().getHostString())
                    .port(options.listen().getPort())
                    .route(r -> r.get("/", routes::index)
                            .get("/metrics", routes::metrics)
                            .get("/series/{id}/events", routes::events)
                            .get("/series/{id}", routes::page))
                    .bindNow(Duration.ofSeconds(10));
        } catch (RuntimeException e) {
            indexing.dispose();
            throw new IllegalStateException("dashboard: cannot listen on " + options.listen().getHostString() + ":"
                    + options.listen().getPort() + ": " + e.getMessage(), e);
        }
        return new Dashboard(server, indexing, index);
    }

    /** The address it listens on (the actual port when 0 was asked). */
    public InetSocketAddress address() {
        return (InetSocketAddress) server.address();
    }

    /** {@code http://host:port/}. */
    public String url() {
        InetSocketAddress a = address();
        String host = a.getHostString().contains(":") ? "[" + a.getHostString() + "]" : a.getHostString();
        return "http://" + host + ":" + a.getPort() + "/";
    }

    /** The page of one series. */
    public String url(String series) {
        return url() + "series/" + URLEncoder.encode(series, StandardCharsets.UTF_8);
    }

    /** Series the dashboard has seen so far (for tests and the commands' closing line). */
    public int seriesCount() {
        return index.all().size();
    }

    /** Blocks until the server is closed (the {@code dashboard} command). */
    public void awaitClose() {
        server.onDispose().block();
    }

    @Override
    public void close() {
        indexing.dispose();
        server.disposeNow(Duration.ofSeconds(5));
    }

    /** The handlers. */
    private static final class Routes {
        private final WireSource source;
        private final WireCodec codec;
        private final SeriesIndex index;
        private final byte[] token;

        Routes(WireSource source, WireCodec codec, SeriesIndex index, String token) {
            this.source = source;
            this.codec = codec;
            this.index = index;
            this.token = token == null ? null : token.getBytes(StandardCharsets.UTF_8);
        }

        private boolean allowed(HttpServerRequest req) {
            if (token == null) {
                return true;
            }
            String given = null;
            List<String> q = new QueryStringDecoder(req.uri()).parameters().get("token");
            if (q != null && !q.isEmpty()) {
                given = q.get(0);
            }
            String auth = req.requestHeaders().get(HttpHeaderNames.AUTHORIZATION);
            if (given == null && auth != null && auth.startsWith("Bearer ")) {
                given = auth.substring("Bearer ".length());
            }
            return given != null && MessageDigest.isEqual(token, given.getBytes(StandardCharsets.UTF_8));
        }

        private String tokenQuery() {
            return token == null ? "" : "?token=" + URLEncoder.encode(new String(token, StandardCharsets.UTF_8),
                    StandardCharsets.UTF_8);
        }

        private Publisher<Void> denied(HttpServerResponse res) {
            return res.status(HttpResponseStatus.UNAUTHORIZED)
                    .header(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8")
                    .sendString(Mono.just("this dashboard needs its token: ?token=T or Authorization: Bearer T\n"));
        }

        Publisher<Void> index(HttpServerRequest req, HttpServerResponse res) {
            if (!allowed(req)) {
                return denied(res);
            }
            StringBuilder html = new StringBuilder("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                    + "<meta http-equiv=\"refresh\" content=\"5\"><title>rigscope series</title><style>\n")
                    .append(SeriesPage.pageCss()).append("\n</style></head><body><h1>rigscope: series on the broker"
                            + "</h1><table class=\"rs-index\"><tr><th>series</th><th>state</th><th>verdict</th>"
                            + "<th>sustained repeats passed</th><th>started</th><th>headline</th></tr>\n");
            for (SeriesIndex.Snapshot s : index.all()) {
                html.append("<tr><td><a href=\"series/").append(esc(URLEncoder.encode(s.series(), StandardCharsets.UTF_8)))
                        .append(esc(tokenQuery())).append("\">").append(esc(s.series())).append("</a></td><td>")
                        .append(s.archived() ? "archived" : "live").append("</td><td>")
                        .append(s.verdict() == null ? "-" : esc(s.verdict())).append("</td><td>")
                        .append(esc(s.score())).append("</td><td>")
                        .append(s.startedUs() == 0 ? "-" : TIME.format(Instant.ofEpochSecond(0, s.startedUs() * 1000)))
                        .append("</td><td>").append(s.headline() == null ? "" : esc(s.headline())).append("</td></tr>\n");
            }
            html.append("</table><p class=\"rs-note\">Refreshes every 5 s. <a href=\"metrics").append(esc(tokenQuery()))
                    .append("\">/metrics</a> (Prometheus text format).</p></body></html>\n");
            return res.header(HttpHeaderNames.CONTENT_TYPE, "text/html; charset=utf-8").sendString(Mono.just(html.toString()));
        }

        Publisher<Void> page(HttpServerRequest req, HttpServerResponse res) {
            if (!allowed(req)) {
                return denied(res);
            }
            String id = req.param("id");
            return res.header(HttpHeaderNames.CONTENT_TYPE, "text/html; charset=utf-8").sendString(Mono.just(
                    SeriesPage.streamed("rigscope " + id, URLEncoder.encode(id, StandardCharsets.UTF_8) + "/events"
                            + tokenQuery())));
        }

        Publisher<Void> events(HttpServerRequest req, HttpServerResponse res) {
            if (!allowed(req)) {
                return denied(res);
            }
            String id = req.param("id");
            Flux<String> events = source.batches(new WireSource.Spec(PAGE_TOPICS, id, true, true), failed -> { })
                    .filter(batch -> !batch.isEmpty())
                    .map(this::events);
            return res.sse().sendString(Flux.just(": rigscope series " + id.replace('\n', ' ') + "\n\n")
                    .concatWith(events));
        }

        private String events(List<WireRecord> batch) {
            StringBuilder b = new StringBuilder();
            for (WireRecord r : batch) {
                b.append("data: ").append(WireLine.of(codec, r).render(codec)).append("\n\n");
            }
            return b.toString();
        }

        Publisher<Void> metrics(HttpServerRequest req, HttpServerResponse res) {
            if (!allowed(req)) {
                return denied(res);
            }
            return res.header(HttpHeaderNames.CONTENT_TYPE, PrometheusText.CONTENT_TYPE)
                    .sendString(Mono.just(PrometheusText.render(index.all())));
        }

        private static String esc(String s) {
            return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
        }
    }
}
