package io.rigscope.awsstandin;

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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One local HTTP endpoint on a free loopback port standing in for AWS: each request is read into an
 * {@link AwsCall} and answered by the handler {@link #route routed} to its action, else by the
 * {@link #otherwise fallback} (by default a JSON 1.1 {@code UnknownOperationException}; the cloud tests' routes by
 * {@link AwsCall#service}).
 * A handler's {@link AwsAnswer.Refusal} is sent as its answer; any other exception as a 500
 * {@code InternalFailure}. Signatures are not checked (the credentials are placeholders, never real ones). Every
 * call is kept ({@link #calls}).
 *
 * <p>One server thread answers, one call at a time; routes and calls may be read or added from any thread. Close to
 * stop.
 */
public final class AwsStandIn implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern SCOPE = Pattern.compile("Credential=[^/]+/\\d{8}/[^/]+/([^/]+)/aws4_request");

    private final HttpServer server;
    private final Map<String, Function<AwsCall, AwsAnswer>> routes = new ConcurrentHashMap<>();
    private final List<AwsCall> calls = java.util.Collections.synchronizedList(new ArrayList<>());
    private volatile Function<AwsCall, AwsAnswer> fallback = call -> AwsAnswer.jsonError(400,
            "UnknownOperationException", "the stand-in has no answer for " + call.action());

    private AwsStandIn() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the AWS stand-in", e);
        }
        server.createContext("/", this::handle);
        server.start();
    }

    /** Starts an endpoint on a free loopback port, with no routes yet. */
    public static AwsStandIn start() {
        return new AwsStandIn();
    }

    /** Answers {@code action} (any service) with {@code handler}; replaces an earlier route. */
    public AwsStandIn route(String action, Function<AwsCall, AwsAnswer> handler) {
        routes.put(action, handler);
        return this;
    }

    /** Answers what nothing else takes. */
    public AwsStandIn otherwise(Function<AwsCall, AwsAnswer> handler) {
        fallback = handler;
        return this;
    }

    /** Where the SDK clients are pointed. */
    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** Every call so far, in order. */
    public List<AwsCall> calls() {
        synchronized (calls) {
            return List.copyOf(calls);
        }
    }

    /** The calls of one action, in order. */
    public List<AwsCall> calls(String action) {
        return calls().stream().filter(c -> c.action().equals(action)).toList();
    }

    /** Calls so far by key ({@code GetLogEvents=12, ...} with {@link AwsCall#action}). */
    public Map<String, Long> counts(Function<AwsCall, String> key) {
        Map<String, Long> out = new TreeMap<>();
        calls().forEach(c -> out.merge(key.apply(c), 1L, Long::sum));
        return out;
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            AwsAnswer answer;
            try {
                AwsCall call = read(ex);
                calls.add(call);
                answer = routes.getOrDefault(call.action(), fallback).apply(call);
            } catch (AwsAnswer.Refusal r) {
                answer = r.answer();
            } catch (RuntimeException e) {
                answer = AwsAnswer.jsonError(500, "InternalFailure", String.valueOf(e.getMessage()));
            }
            answer.headers().forEach(ex.getResponseHeaders()::add);
            ex.getResponseHeaders().add("Content-Type", answer.contentType());
            ex.getResponseHeaders().add("x-amzn-RequestId", "standin-" + calls.size());
            ex.sendResponseHeaders(answer.status(), answer.body().length == 0 ? -1 : answer.body().length);
            if (answer.body().length > 0) {
                ex.getResponseBody().write(answer.body());
            }
        }
    }

    private static AwsCall read(HttpExchange ex) throws IOException {
        Map<String, String> headers = new LinkedHashMap<>();
        ex.getRequestHeaders().forEach((k, v) -> headers.put(k.toLowerCase(Locale.ROOT), v.isEmpty() ? "" : v.get(0)));
        byte[] body = ex.getRequestBody().readAllBytes();
        body = headers.getOrDefault("content-encoding", "").contains("aws-chunked") ? unchunk(body) : body;
        Matcher scope = SCOPE.matcher(headers.getOrDefault("authorization", ""));
        String service = scope.find() ? scope.group(1) : "?";
        String target = headers.get("x-amz-target");
        String type = headers.getOrDefault("content-type", "");
        Map<String, String> form = type.startsWith("application/x-www-form-urlencoded")
                ? form(new String(body, StandardCharsets.UTF_8)) : Map.of();
        JsonNode json = null;
        if (target != null || type.contains("json")) {
            try {
                json = JSON.readTree(body.length == 0 ? "{}".getBytes(StandardCharsets.UTF_8) : body);
            } catch (IOException notJson) {
                json = null; // a body that only says it is JSON: the handler reads the bytes
            }
        }
        String path = ex.getRequestURI().getPath();
        String action = target != null ? target.substring(target.indexOf('.') + 1)
                : form.containsKey("Action") ? form.get("Action") : ex.getRequestMethod() + " " + path;
        return new AwsCall(service, action, ex.getRequestMethod(), path, form(ex.getRequestURI().getRawQuery()), form,
                json, body, headers);
    }

    /** The payload of an {@code aws-chunked} body: {@code hex-size[;chunk-signature=...]\r\n data \r\n}..., trailers after 0. */
    private static byte[] unchunk(byte[] body) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        int at = 0;
        while (at < body.length) {
            int eol = at;
            while (eol + 1 < body.length && !(body[eol] == '\r' && body[eol + 1] == '\n')) {
                eol++;
            }
            String header = new String(body, at, eol - at, StandardCharsets.US_ASCII);
            int size = Integer.parseInt(header.split(";")[0].strip(), 16);
            if (size == 0) {
                break;
            }
            out.write(body, eol + 2, size);
            at = eol + 2 + size + 2;
        }
        return out.toByteArray();
    }

    /** {@code a=1&b=2}, URL-decoded, in order. */
    private static Map<String, String> form(String text) {
        Map<String, String> out = new LinkedHashMap<>();
        if (text == null || text.isEmpty()) {
            return out;
        }
        for (String pair : text.split("&")) {
            int eq = pair.indexOf('=');
            String k = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            out.put(k, eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
        return out;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
