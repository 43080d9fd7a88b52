package io.rigscope.collectors.aws;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;

/**
 * A local HTTP server that answers AWS API calls with documented response shapes, for the real SDK clients.
 * JSON protocols (CloudWatch Logs, Performance Insights) are routed by the {@code X-Amz-Target} action, query
 * protocols (RDS, CloudWatch) by the {@code Action} form parameter.
 */
final class FakeAws implements AutoCloseable {

    static final String ACCESS_KEY = "AKIDRIGSCOPETEST0001";
    static final String SECRET_KEY = "rigscope-test-secret-never-in-a-record";

    /** One call as the server saw it. */
    record Call(String action, Map<String, String> form, JsonNode json, String authorization) {
    }

    /** A canned answer. */
    record Answer(int status, String contentType, String body) {
        static Answer json(String body) {
            return new Answer(200, "application/x-amz-json-1.1", body);
        }

        static Answer xml(String body) {
            return new Answer(200, "text/xml", body);
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpServer server;
    private final Map<String, Function<Call, Answer>> routes = new ConcurrentHashMap<>();
    final List<Call> calls = new CopyOnWriteArrayList<>();

    FakeAws() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            String text = new String(body, StandardCharsets.UTF_8);
            String target = exchange.getRequestHeaders().getFirst("X-Amz-Target");
            Call call;
            if (target != null) {
                call = new Call(target.substring(target.indexOf('.') + 1), Map.of(), JSON.readTree(text),
                        exchange.getRequestHeaders().getFirst("Authorization"));
            } else {
                Map<String, String> form = new java.util.LinkedHashMap<>();
                for (String pair : text.split("&")) {
                    int eq = pair.indexOf('=');
                    if (eq > 0) {
                        form.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                                URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
                    }
                }
                call = new Call(form.getOrDefault("Action", "?"), form, null,
                        exchange.getRequestHeaders().getFirst("Authorization"));
            }
            calls.add(call);
            Function<Call, Answer> route = routes.get(call.action());
            Answer answer = route == null ? new Answer(400, "application/x-amz-json-1.1",
                    "{\"__type\":\"UnknownOperationException\",\"message\":\"no fixture for " + call.action() + "\"}")
                    : route.apply(call);
            byte[] out = answer.body().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", answer.contentType());
            exchange.getResponseHeaders().add("x-amzn-RequestId", "fake-" + calls.size());
            exchange.sendResponseHeaders(answer.status(), out.length);
            exchange.getResponseBody().write(out);
            exchange.close();
        });
        server.start();
    }

    void route(String action, Function<Call, Answer> answer) {
        routes.put(action, answer);
    }

    List<Call> calls(String action) {
        return calls.stream().filter(c -> c.action().equals(action)).toList();
    }

    URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    AwsSettings settings() {
        return new AwsSettings(Region.EU_WEST_1, endpoint(),
                StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY)));
    }

    static String fixture(String name) {
        try (InputStream in = FakeAws.class.getResourceAsStream("/aws/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static ObjectMapper json() {
        return JSON;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
