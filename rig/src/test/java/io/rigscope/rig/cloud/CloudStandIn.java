package io.rigscope.rig.cloud;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One local HTTP endpoint answering, in each service's documented protocol, the AWS calls {@code rigscope cloud}
 * makes, over a small in-memory account ({@link StandInAccount}): CloudFormation, IAM, EC2 and RDS (query protocol,
 * XML answers), Resource Groups Tagging API (JSON 1.1), EventBridge Scheduler (REST-JSON) and S3 (REST-XML,
 * path-style). A request's service is read from its signature's credential scope, as AWS routes it. Signatures are
 * not checked. {@link #deny} makes a service answer every call with its access-denied error.
 */
final class CloudStandIn implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern SCOPE = Pattern.compile("Credential=[^/]+/\\d{8}/[^/]+/([^/]+)/aws4_request");

    final StandInAccount account;
    private final HttpServer server;
    private final Set<String> denied = ConcurrentHashMap.newKeySet();
    final Map<String, Integer> calls = new ConcurrentHashMap<>();

    private CloudStandIn(String region) throws IOException {
        this.account = new StandInAccount(region);
        this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::handle);
    }

    static CloudStandIn start(String region) {
        try {
            CloudStandIn s = new CloudStandIn(region);
            s.server.start();
            return s;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** {@code service} (its signing name: tagging, cloudformation, ...) refuses every call from now on. */
    void deny(String service) {
        denied.add(service);
    }

    @Override
    public void close() {
        server.stop(0);
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            byte[] body = ex.getRequestBody().readAllBytes();
            String auth = ex.getRequestHeaders().getFirst("Authorization");
            Matcher m = SCOPE.matcher(auth == null ? "" : auth);
            String service = m.find() ? m.group(1) : "?";
            String target = ex.getRequestHeaders().getFirst("X-Amz-Target");
            String contentType = String.valueOf(ex.getRequestHeaders().getFirst("Content-Type"));
            Map<String, String> form = contentType.startsWith("application/x-www-form-urlencoded")
                    ? form(new String(body, StandardCharsets.UTF_8)) : Map.of();
            String call = service + ":" + (target != null ? target.substring(target.indexOf('.') + 1)
                    : form.containsKey("Action") ? form.get("Action") : ex.getRequestMethod() + " " + ex.getRequestURI().getPath());
            calls.merge(call, 1, Integer::sum);
            if (denied.contains(service)) {
                denied(ex, service, call);
                return;
            }
            synchronized (account) {
                switch (service) {
                    case "cloudformation", "iam", "ec2", "rds" -> QueryApis.answer(this, ex, service, form);
                    case "tagging" -> tagging(ex, target, JSON.readTree(body));
                    case "scheduler" -> scheduler(ex, body);
                    case "s3" -> s3(ex, body);
                    case "ssm" -> ssm(ex, target, JSON.readTree(body));
                    default -> send(ex, 400, "text/plain", "unknown service " + service);
                }
            }
        } catch (RuntimeException e) {
            e.printStackTrace();
            throw e;
        }
    }

    private void denied(HttpExchange ex, String service, String call) throws IOException {
        String message = "User: arn:aws:iam::" + StandInAccount.ACCOUNT + ":user/tester is not authorized to perform: "
                + call + " because no identity-based policy allows it";
        switch (service) {
            case "tagging", "scheduler" -> {
                ex.getResponseHeaders().add("x-amzn-ErrorType", "AccessDeniedException");
                send(ex, 403, "application/x-amz-json-1.1", JSON.createObjectNode()
                        .put("__type", "AccessDeniedException").put("Message", message).toString());
            }
            case "ec2" -> send(ex, 403, "text/xml", "<Response><Errors><Error><Code>UnauthorizedOperation</Code><Message>"
                    + xml(message) + "</Message></Error></Errors><RequestID>r-1</RequestID></Response>");
            case "s3" -> send(ex, 403, "application/xml", "<Error><Code>AccessDenied</Code><Message>" + xml(message)
                    + "</Message></Error>");
            default -> QueryApis.error(ex, 403, "AccessDenied", message);
        }
    }

    // ---- Resource Groups Tagging API (JSON 1.1)

    private void tagging(HttpExchange ex, String target, JsonNode in) throws IOException {
        ObjectNode out = JSON.createObjectNode();
        if (target.endsWith("GetResources")) {
            ArrayNode list = out.putArray("ResourceTagMappingList");
            account.tagged.forEach((arn, tags) -> {
                for (JsonNode f : in.path("TagFilters")) {
                    String value = tags.get(f.path("Key").asText());
                    if (value == null || (f.has("Values") && f.get("Values").size() > 0
                            && !f.get("Values").toString().contains("\"" + value + "\""))) {
                        return;
                    }
                }
                ObjectNode r = list.addObject().put("ResourceARN", arn);
                ArrayNode ts = r.putArray("Tags");
                tags.forEach((k, v) -> ts.addObject().put("Key", k).put("Value", v));
            });
            out.put("PaginationToken", "");
        } else if (target.endsWith("TagResources")) {
            for (JsonNode arn : in.path("ResourceARNList")) {
                Map<String, String> tags = account.tagged.get(arn.asText());
                if (account.stacks.containsKey(arn.asText())) {
                    tags = account.stacks.get(arn.asText()).tags;
                }
                if (tags != null) {
                    Map<String, String> into = tags;
                    in.path("Tags").fields().forEachRemaining(e -> into.put(e.getKey(), e.getValue().asText()));
                }
            }
            out.putObject("FailedResourcesMap");
        } else {
            send(ex, 400, "application/x-amz-json-1.1", "{\"__type\":\"ValidationException\",\"Message\":\"" + target + "\"}");
            return;
        }
        send(ex, 200, "application/x-amz-json-1.1", out.toString());
    }

    // ---- SSM Run Command (JSON 1.1): the node runs the script as NodeRun says, two output lines per poll

    /** What load node 1 did with a script: its console, its exit code, and what it copied to S3. */
    record NodeRun(List<String> lines, int exitCode, String bucket, Map<String, byte[]> evidence) {
    }

    /** The last script a node was sent. */
    volatile List<String> lastScript = List.of();
    private final Map<String, NodeRun> commands = new LinkedHashMap<>();
    private final Map<String, Integer> shown = new LinkedHashMap<>();

    private void ssm(HttpExchange ex, String target, JsonNode in) throws IOException {
        String type = "application/x-amz-json-1.1";
        if (target.endsWith("SendCommand")) {
            List<String> script = new ArrayList<>();
            in.path("Parameters").path("commands").forEach(c -> script.add(c.asText()));
            lastScript = List.copyOf(script);
            String id = "cmd-" + account.next();
            commands.put(id, node(script));
            shown.put(id, -1);
            ObjectNode out = JSON.createObjectNode();
            out.putObject("Command").put("CommandId", id).put("DocumentName", in.path("DocumentName").asText())
                    .put("Status", "Pending").set("InstanceIds", in.path("InstanceIds"));
            send(ex, 200, type, out.toString());
            return;
        }
        String id = in.path("CommandId").asText();
        NodeRun run = commands.get(id);
        int n = shown.getOrDefault(id, -1);
        if (run == null || n < 0) {
            shown.put(id, 0);
            send(ex, 400, type, JSON.createObjectNode().put("__type", "InvocationDoesNotExist").toString());
            return;
        }
        n = Math.min(run.lines().size(), n + 2);
        shown.put(id, n);
        boolean done = n == run.lines().size();
        if (done) {
            Map<String, byte[]> bucket = account.buckets.get(run.bucket());
            if (bucket != null) {
                bucket.putAll(run.evidence());
            }
        }
        ObjectNode out = JSON.createObjectNode().put("CommandId", id).put("InstanceId", in.path("InstanceId").asText())
                .put("Status", done ? (run.exitCode() == 0 ? "Success" : "Failed") : "InProgress")
                .put("StandardOutputContent", String.join("", run.lines().subList(0, n).stream().map(l -> l + "\n")
                        .toList())).put("StandardErrorContent", "");
        out.put("ResponseCode", done ? run.exitCode() : -1);
        send(ex, 200, type, out.toString());
    }

    /** Load node 1 running the script: the series file it was given, a console, evidence copied where it says. */
    private NodeRun node(List<String> script) {
        String seriesFile = "";
        String dest = "";
        for (String line : script) {
            Matcher b64 = Pattern.compile("echo '([A-Za-z0-9+/=]+)' \\| base64 -d").matcher(line);
            if (b64.find()) {
                seriesFile = new String(java.util.Base64.getDecoder().decode(b64.group(1)), StandardCharsets.UTF_8);
            }
            Matcher cp = Pattern.compile("aws s3 cp --recursive .* evidence (s3://\\S+)").matcher(line);
            if (cp.find()) {
                dest = cp.group(1);
            }
        }
        String bucket = dest.replaceFirst("^s3://", "").replaceFirst("/.*", "");
        String prefix = dest.replaceFirst("^s3://[^/]+/", "");
        Map<String, byte[]> evidence = new LinkedHashMap<>();
        evidence.put(prefix + "series.yaml", seriesFile.getBytes(StandardCharsets.UTF_8));
        evidence.put(prefix + "records.jsonl", "{\"run\":\"stand-in\"}\n".getBytes(StandardCharsets.UTF_8));
        evidence.put(prefix + "report.md", "# stand-in report\n".getBytes(StandardCharsets.UTF_8));
        List<String> lines = List.of("rigscope run: series on the stand-in's load node 1", "bring-up: ok",
                "sustained 1/1: 100 req/s", "series verdict: stand-in", "rigscope: run exited 0; evidence in " + dest);
        return new NodeRun(lines, 0, bucket, evidence);
    }

    // ---- EventBridge Scheduler (REST-JSON)

    private void scheduler(HttpExchange ex, byte[] body) throws IOException {
        String path = ex.getRequestURI().getPath();
        String method = ex.getRequestMethod();
        if (path.equals("/schedules") && method.equals("GET")) {
            String prefix = form(ex.getRequestURI().getRawQuery() == null ? "" : ex.getRequestURI().getRawQuery())
                    .getOrDefault("NamePrefix", "");
            ObjectNode out = JSON.createObjectNode();
            ArrayNode list = out.putArray("Schedules");
            account.schedules.forEach((name, s) -> {
                if (name.startsWith(prefix)) {
                    ObjectNode n = list.addObject().put("Name", name).put("Arn", s.get("Arn")).put("GroupName", "default")
                            .put("State", s.get("State"));
                    n.putObject("Target").put("Arn", s.get("TargetArn"));
                }
            });
            send(ex, 200, "application/json", out.toString());
            return;
        }
        String name = path.substring("/schedules/".length());
        Map<String, String> existing = account.schedules.get(name);
        switch (method) {
            case "POST", "PUT" -> {
                if (method.equals("POST") && existing != null) {
                    schedulerError(ex, 409, "ConflictException", "Schedule " + name + " already exists.");
                    return;
                }
                if (method.equals("PUT") && existing == null) {
                    schedulerError(ex, 404, "ResourceNotFoundException", "Schedule " + name + " does not exist.");
                    return;
                }
                JsonNode in = JSON.readTree(body);
                Map<String, String> s = new LinkedHashMap<>();
                s.put("Arn", "arn:aws:scheduler:" + account.region + ":" + StandInAccount.ACCOUNT + ":schedule/default/" + name);
                s.put("ScheduleExpression", in.path("ScheduleExpression").asText());
                s.put("ScheduleExpressionTimezone", in.path("ScheduleExpressionTimezone").asText());
                s.put("TargetArn", in.path("Target").path("Arn").asText());
                s.put("RoleArn", in.path("Target").path("RoleArn").asText());
                s.put("Input", in.path("Target").path("Input").asText());
                s.put("ActionAfterCompletion", in.path("ActionAfterCompletion").asText());
                s.put("State", in.path("State").asText("ENABLED"));
                account.schedules.put(name, s);
                send(ex, 200, "application/json", JSON.createObjectNode().put("ScheduleArn", s.get("Arn")).toString());
            }
            case "GET" -> {
                if (existing == null) {
                    schedulerError(ex, 404, "ResourceNotFoundException", "Schedule " + name + " does not exist.");
                    return;
                }
                ObjectNode out = JSON.createObjectNode().put("Name", name).put("Arn", existing.get("Arn"))
                        .put("GroupName", "default").put("ScheduleExpression", existing.get("ScheduleExpression"))
                        .put("ScheduleExpressionTimezone", existing.get("ScheduleExpressionTimezone"))
                        .put("State", existing.get("State")).put("ActionAfterCompletion", existing.get("ActionAfterCompletion"));
                out.putObject("FlexibleTimeWindow").put("Mode", "OFF");
                out.putObject("Target").put("Arn", existing.get("TargetArn")).put("RoleArn", existing.get("RoleArn"))
                        .put("Input", existing.get("Input"));
                send(ex, 200, "application/json", out.toString());
            }
            case "DELETE" -> {
                if (account.schedules.remove(name) == null) {
                    schedulerError(ex, 404, "ResourceNotFoundException", "Schedule " + name + " does not exist.");
                    return;
                }
                send(ex, 200, "application/json", "{}");
            }
            default -> schedulerError(ex, 400, "ValidationException", method + " " + path);
        }
    }

    private void schedulerError(HttpExchange ex, int status, String type, String message) throws IOException {
        ex.getResponseHeaders().add("x-amzn-ErrorType", type);
        send(ex, status, "application/json", JSON.createObjectNode().put("Message", message).toString());
    }

    // ---- S3 (REST-XML, path-style)

    private void s3(HttpExchange ex, byte[] body) throws IOException {
        String path = ex.getRequestURI().getPath().substring(1);
        int slash = path.indexOf('/');
        String bucket = slash < 0 ? path : path.substring(0, slash);
        String key = slash < 0 ? "" : URLDecoder.decode(path.substring(slash + 1), StandardCharsets.UTF_8);
        Map<String, byte[]> objects = account.buckets.get(bucket);
        if (objects == null) {
            send(ex, 404, "application/xml", "<Error><Code>NoSuchBucket</Code><Message>The specified bucket does not "
                    + "exist</Message><BucketName>" + xml(bucket) + "</BucketName></Error>");
            return;
        }
        switch (ex.getRequestMethod()) {
            case "PUT" -> {
                String encoding = ex.getRequestHeaders().getFirst("Content-Encoding");
                objects.put(key, encoding != null && encoding.contains("aws-chunked") ? unchunk(body) : body);
                ex.getResponseHeaders().add("ETag", "\"" + Integer.toHexString(java.util.Arrays.hashCode(body)) + "\"");
                send(ex, 200, "application/xml", "");
            }
            case "GET" -> {
                if (key.isEmpty()) {
                    String prefix = form(ex.getRequestURI().getRawQuery() == null ? "" : ex.getRequestURI().getRawQuery())
                            .getOrDefault("prefix", "");
                    StringBuilder b = new StringBuilder("<ListBucketResult xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
                            + "<Name>" + xml(bucket) + "</Name><Prefix>" + xml(prefix) + "</Prefix><IsTruncated>false</IsTruncated>");
                    int n = 0;
                    for (Map.Entry<String, byte[]> o : objects.entrySet()) {
                        if (o.getKey().startsWith(prefix)) {
                            n++;
                            b.append("<Contents><Key>").append(xml(o.getKey())).append("</Key><Size>")
                                    .append(o.getValue().length).append("</Size></Contents>");
                        }
                    }
                    send(ex, 200, "application/xml", b.append("<KeyCount>").append(n).append("</KeyCount></ListBucketResult>")
                            .toString());
                    return;
                }
                byte[] o = objects.get(key);
                if (o == null) {
                    send(ex, 404, "application/xml", "<Error><Code>NoSuchKey</Code><Message>The specified key does not "
                            + "exist.</Message><Key>" + xml(key) + "</Key></Error>");
                    return;
                }
                ex.getResponseHeaders().add("Content-Type", "application/octet-stream");
                ex.sendResponseHeaders(200, o.length);
                ex.getResponseBody().write(o);
            }
            default -> send(ex, 405, "application/xml", "<Error><Code>MethodNotAllowed</Code></Error>");
        }
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

    // ---- shared

    static Map<String, String> form(String text) {
        Map<String, String> out = new LinkedHashMap<>();
        if (text == null || text.isEmpty() || text.startsWith("{") || text.startsWith("<")) {
            return out;
        }
        for (String pair : text.split("&")) {
            int eq = pair.indexOf('=');
            String k = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            out.put(k, eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
        return out;
    }

    /** The values of a query-protocol list: {@code prefix.1}, {@code prefix.2}, ... */
    static List<String> list(Map<String, String> form, String prefix) {
        List<String> out = new ArrayList<>();
        for (int i = 1; form.containsKey(prefix + "." + i); i++) {
            out.add(form.get(prefix + "." + i));
        }
        return out;
    }

    static String xml(String s) {
        return s == null ? "" : s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    static void send(HttpExchange ex, int status, String contentType, String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().add("Content-Type", contentType);
        ex.getResponseHeaders().add("x-amzn-RequestId", "standin-" + System.nanoTime());
        ex.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            ex.getResponseBody().write(bytes);
        }
    }
}
