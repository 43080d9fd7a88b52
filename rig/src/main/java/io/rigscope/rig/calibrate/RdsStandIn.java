package io.rigscope.rig.calibrate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A local HTTP endpoint answering the five AWS calls the RDS collectors make, in AWS's documented wire shapes,
 * with an instance made of this host's real measurements: CloudWatch Logs GetLogEvents ({@link EmStream}),
 * Performance Insights GetResourceMetrics ({@link PiSamples}), RDS DescribeDBLogFiles and
 * DownloadDBLogFilePortion ({@link RdsLogFile}), CloudWatch GetMetricData ({@link CloudWatchPeriods}). The real
 * collectors reach it through the AWS SDK with an endpoint override (what {@code --aws-endpoint} sets), so they
 * poll, page and parse exactly as they do against AWS. With an instance description ({@link RdsDescribe}) it
 * also answers RDS DescribeDBInstances and DescribeDBParameters, and with a load-host zone the EC2 instance
 * metadata service's IMDSv2 token and {@code placement/availability-zone} paths (what {@code run --config} with
 * {@code rds:} reads).
 *
 * <p>JSON protocols are routed by {@code X-Amz-Target}, query protocols by the {@code Action} form field.
 * Signatures are not checked (the credentials are placeholders, never real ones). One server thread; a daemon
 * timer releases the log ({@link RdsLogFile#RELEASE_EVERY}). Close to stop both.
 */
final class RdsStandIn implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpServer server;
    private final ScheduledExecutorService timer;
    private final Clock clock;
    private final EmStream em;
    private final PiSamples pi;
    private final RdsLogFile log;
    private final CloudWatchPeriods cloudWatch;
    private final RdsDescribe describe;
    private final String loadHostZone;
    private final Map<String, AtomicLong> calls = new java.util.concurrent.ConcurrentHashMap<>();
    private final AtomicLong requests = new AtomicLong();

    private RdsStandIn(EmStream em, PiSamples pi, RdsLogFile log, CloudWatchPeriods cloudWatch, Clock clock,
                       RdsDescribe describe, String loadHostZone) throws IOException {
        this.describe = describe;
        this.loadHostZone = loadHostZone;
        this.em = Objects.requireNonNull(em, "em");
        this.pi = Objects.requireNonNull(pi, "pi");
        this.log = Objects.requireNonNull(log, "log");
        this.cloudWatch = Objects.requireNonNull(cloudWatch, "cloudWatch");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::handle);
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "rig-cal-rds-log");
            t.setDaemon(true);
            return t;
        });
    }

    /** Starts the endpoint on a free loopback port; the log's first release is one step from now. */
    static RdsStandIn start(EmStream em, PiSamples pi, RdsLogFile log, CloudWatchPeriods cloudWatch, Clock clock) {
        return start(em, pi, log, cloudWatch, clock, null, null);
    }

    /**
     * Starts the endpoint answering also DescribeDBInstances and DescribeDBParameters ({@code describe}, null: not)
     * and the instance metadata service's zone ({@code loadHostZone}, null: not).
     */
    static RdsStandIn start(EmStream em, PiSamples pi, RdsLogFile log, CloudWatchPeriods cloudWatch, Clock clock,
                            RdsDescribe describe, String loadHostZone) {
        try {
            RdsStandIn s = new RdsStandIn(em, pi, log, cloudWatch, clock, describe, loadHostZone);
            s.server.start();
            long stepMs = RdsLogFile.RELEASE_EVERY.toMillis();
            s.timer.scheduleAtFixedRate(() -> log.release(clock.millis()), stepMs, stepMs, TimeUnit.MILLISECONDS);
            return s;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the RDS stand-in endpoint", e);
        }
    }

    /** Where the SDK clients are pointed. */
    URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** Calls answered so far, by action ({@code GetLogEvents=12, ...}). */
    Map<String, Long> calls() {
        Map<String, Long> out = new java.util.TreeMap<>();
        calls.forEach((k, v) -> out.put(k, v.get()));
        return out;
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            if (exchange.getRequestURI().getPath().startsWith("/latest/")) {
                metadata(exchange);
                return;
            }
            String target = exchange.getRequestHeaders().getFirst("X-Amz-Target");
            long nowMs = clock.millis();
            if (target != null) {
                String action = target.substring(target.indexOf('.') + 1);
                calls.computeIfAbsent(action, a -> new AtomicLong()).incrementAndGet();
                JsonNode request = JSON.readTree(body.isEmpty() ? "{}" : body);
                String answer = switch (action) {
                    case "GetLogEvents" -> em.getLogEvents(request, nowMs);
                    case "GetResourceMetrics" -> pi.getResourceMetrics(request);
                    case "GetProducts" -> describe == null ? null : describe.getProducts(request);
                    default -> null;
                };
                if (answer != null) {
                    send(exchange, 200, "application/x-amz-json-1.1", answer);
                } else {
                    String type = "GetLogEvents".equals(action) ? "ResourceNotFoundException" : "InvalidArgumentException";
                    send(exchange, 400, "application/x-amz-json-1.1", JSON.createObjectNode().put("__type", type)
                            .put("message", "the stand-in has no such resource for " + action).toString());
                }
                return;
            }
            Map<String, String> form = form(body);
            String action = form.getOrDefault("Action", "?");
            calls.computeIfAbsent(action, a -> new AtomicLong()).incrementAndGet();
            String answer = switch (action) {
                case "DescribeDBLogFiles" -> log.describe(form);
                case "DownloadDBLogFilePortion" -> log.download(form);
                case "GetMetricData" -> cloudWatch.getMetricData(form, nowMs);
                case "DescribeDBInstances" -> describe == null ? null : describe.describeDbInstances(form);
                case "DescribeDBParameters" -> describe == null ? null : describe.describeDbParameters(form);
                default -> null;
            };
            if (answer != null) {
                send(exchange, 200, "text/xml", answer);
            } else if (action.equals("DescribeDBInstances") || action.equals("DescribeDBParameters")) {
                boolean instance = action.equals("DescribeDBInstances");
                send(exchange, 404, "text/xml", "<ErrorResponse xmlns=\"http://rds.amazonaws.com/doc/2014-10-31/\">"
                        + "<Error><Type>Sender</Type><Code>" + (instance ? "DBInstanceNotFound" : "DBParameterGroupNotFound")
                        + "</Code><Message>" + (instance ? "DBInstance " + xml(form.get("DBInstanceIdentifier"))
                        : "DBParameterGroup " + xml(form.get("DBParameterGroupName"))) + " not found.</Message></Error>"
                        + "<RequestId>" + UUID.randomUUID() + "</RequestId></ErrorResponse>");
            } else {
                String code = "DownloadDBLogFilePortion".equals(action) ? "DBLogFileNotFoundFault" : "InvalidAction";
                send(exchange, "DBLogFileNotFoundFault".equals(code) ? 404 : 400, "text/xml",
                        "<ErrorResponse><Error><Type>Sender</Type><Code>" + code + "</Code><Message>the stand-in "
                                + "has no such resource for " + xml(action) + "</Message></Error>"
                                + "<RequestId>" + UUID.randomUUID() + "</RequestId></ErrorResponse>");
            }
        } catch (RuntimeException e) {
            send(exchange, 500, "application/x-amz-json-1.1", JSON.createObjectNode()
                    .put("__type", "InternalFailure").put("message", String.valueOf(e.getMessage())).toString());
        }
    }

    /** IMDSv2: {@code PUT /latest/api/token}, then {@code GET .../placement/availability-zone} with that token. */
    private void metadata(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        calls.computeIfAbsent("imds " + path, a -> new AtomicLong()).incrementAndGet();
        if (loadHostZone == null) {
            send(exchange, 404, "text/plain", "not found");
        } else if (path.equals("/latest/api/token") && exchange.getRequestMethod().equals("PUT")) {
            send(exchange, 200, "text/plain", "standin-imds-token");
        } else if (path.equals("/latest/meta-data/placement/availability-zone")
                && "standin-imds-token".equals(exchange.getRequestHeaders().getFirst("X-aws-ec2-metadata-token"))) {
            send(exchange, 200, "text/plain", loadHostZone);
        } else {
            send(exchange, 401, "text/plain", "unauthorized");
        }
    }

    private void send(HttpExchange exchange, int status, String type, String body) throws IOException {
        byte[] out = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", type);
        exchange.getResponseHeaders().add("x-amzn-RequestId", "standin-" + requests.incrementAndGet());
        exchange.sendResponseHeaders(status, out.length);
        exchange.getResponseBody().write(out);
    }

    private static Map<String, String> form(String body) {
        Map<String, String> form = new LinkedHashMap<>();
        for (String pair : body.split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                form.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                        URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        return form;
    }

    /** The query protocol's ResponseMetadata element. */
    static String requestId() {
        return "<ResponseMetadata><RequestId>" + UUID.randomUUID() + "</RequestId></ResponseMetadata>";
    }

    /** Text as XML character data: markup escaped, characters XML 1.0 cannot carry replaced by {@code ?}. */
    static String xml(String text) {
        if (text == null) {
            return "";
        }
        StringBuilder out = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '\t', '\n' -> out.append(c);
                case '\r' -> out.append("&#13;");
                default -> out.append(c < 0x20 || c == 0xFFFE || c == 0xFFFF ? '?' : c);
            }
        }
        return out.toString();
    }

    @Override
    public void close() {
        timer.shutdownNow();
        server.stop(0);
    }
}
