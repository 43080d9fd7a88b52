package io.rigscope.rig.cloud;

import static io.rigscope.awsstandin.AwsAnswer.escape;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rigscope.awsstandin.AwsAnswer;
import io.rigscope.awsstandin.AwsCall;
import io.rigscope.awsstandin.AwsStandIn;
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
 * The AWS calls {@code rigscope cloud} makes, answered on an {@link AwsStandIn} over a small in-memory account
 * ({@link StandInAccount}): CloudFormation, IAM, EC2 and RDS (query protocol, {@link QueryApis}), Resource Groups
 * Tagging API and SSM (JSON 1.1), EventBridge Scheduler (REST-JSON) and S3 (REST-XML, path-style), each by its
 * signing service, as AWS routes it. {@link #deny} makes a service answer every call with its access-denied error.
 */
final class CloudStandIn implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    final StandInAccount account;
    private final AwsStandIn aws = AwsStandIn.start();
    private final Set<String> denied = ConcurrentHashMap.newKeySet();

    private CloudStandIn(String region) {
        this.account = new StandInAccount(region);
        aws.otherwise(this::answer);
    }

    static CloudStandIn start(String region) {
        return new CloudStandIn(region);
    }

    URI endpoint() {
        return aws.endpoint();
    }

    /** Calls so far by {@code service:action} ({@code tagging:GetResources=1, ...}). */
    Map<String, Long> calls() {
        return aws.counts(c -> c.service() + ":" + c.action());
    }

    /** {@code service} (its signing name: tagging, cloudformation, ...) refuses every call from now on. */
    void deny(String service) {
        denied.add(service);
    }

    @Override
    public void close() {
        aws.close();
    }

    private AwsAnswer answer(AwsCall c) {
        if (denied.contains(c.service())) {
            String message = "User: arn:aws:iam::" + StandInAccount.ACCOUNT + ":user/tester is not authorized to "
                    + "perform: " + c.service() + ":" + c.action() + " because no identity-based policy allows it";
            return switch (c.service()) {
                case "tagging", "scheduler" -> AwsAnswer.jsonError(403, "AccessDeniedException", message)
                        .with("x-amzn-ErrorType", "AccessDeniedException");
                case "ec2" -> AwsAnswer.ec2Error(403, "UnauthorizedOperation", message);
                case "s3" -> AwsAnswer.restXmlError(403, "AccessDenied", message, "");
                default -> AwsAnswer.queryError(403, "AccessDenied", message);
            };
        }
        synchronized (account) {
            return switch (c.service()) {
                case "cloudformation", "iam", "ec2", "rds" -> QueryApis.answer(account, c);
                case "tagging" -> tagging(c);
                case "scheduler" -> scheduler(c);
                case "s3" -> s3(c);
                case "ssm" -> ssm(c);
                default -> AwsAnswer.of(400, "text/plain", "unknown service " + c.service());
            };
        }
    }

    // ---- Resource Groups Tagging API (JSON 1.1)

    private AwsAnswer tagging(AwsCall c) {
        String target = c.action();
        JsonNode in = c.json();
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
            return AwsAnswer.jsonError(400, "ValidationException", target);
        }
        return AwsAnswer.json(out.toString());
    }

    // ---- SSM Run Command (JSON 1.1): the node runs the script as NodeRun says, two output lines per poll

    /** What load node 1 did with a script: its console, its exit code, and what it copied to S3. */
    record NodeRun(List<String> lines, int exitCode, String bucket, Map<String, byte[]> evidence) {
    }

    /** The last script a node was sent. */
    volatile List<String> lastScript = List.of();
    private final Map<String, NodeRun> commands = new LinkedHashMap<>();
    private final Map<String, Integer> shown = new LinkedHashMap<>();

    private AwsAnswer ssm(AwsCall c) {
        String target = c.action();
        JsonNode in = c.json();
        if (target.endsWith("SendCommand")) {
            List<String> script = new ArrayList<>();
            in.path("Parameters").path("commands").forEach(line -> script.add(line.asText()));
            lastScript = List.copyOf(script);
            String id = "cmd-" + account.next();
            commands.put(id, node(script));
            shown.put(id, -1);
            ObjectNode out = JSON.createObjectNode();
            out.putObject("Command").put("CommandId", id).put("DocumentName", in.path("DocumentName").asText())
                    .put("Status", "Pending").set("InstanceIds", in.path("InstanceIds"));
            return AwsAnswer.json(out.toString());
        }
        String id = in.path("CommandId").asText();
        NodeRun run = commands.get(id);
        int n = shown.getOrDefault(id, -1);
        if (run == null || n < 0) {
            shown.put(id, 0);
            return AwsAnswer.jsonError(400, "InvocationDoesNotExist", id);
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
        return AwsAnswer.json(out.put("ResponseCode", done ? run.exitCode() : -1).toString());
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

    private AwsAnswer scheduler(AwsCall c) {
        String path = c.path();
        String method = c.method();
        if (path.equals("/schedules") && method.equals("GET")) {
            String prefix = c.query().getOrDefault("NamePrefix", "");
            ObjectNode out = JSON.createObjectNode();
            ArrayNode list = out.putArray("Schedules");
            account.schedules.forEach((name, s) -> {
                if (name.startsWith(prefix)) {
                    ObjectNode n = list.addObject().put("Name", name).put("Arn", s.get("Arn")).put("GroupName", "default")
                            .put("State", s.get("State"));
                    n.putObject("Target").put("Arn", s.get("TargetArn"));
                }
            });
            return AwsAnswer.of(200, "application/json", out.toString());
        }
        String name = path.substring("/schedules/".length());
        Map<String, String> existing = account.schedules.get(name);
        return switch (method) {
            case "POST", "PUT" -> {
                if (method.equals("POST") && existing != null) {
                    yield AwsAnswer.restJsonError(409, "ConflictException", "Schedule " + name + " already exists.");
                }
                if (method.equals("PUT") && existing == null) {
                    yield AwsAnswer.restJsonError(404, "ResourceNotFoundException", "Schedule " + name + " does not exist.");
                }
                JsonNode in = c.json();
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
                yield AwsAnswer.of(200, "application/json", JSON.createObjectNode().put("ScheduleArn", s.get("Arn"))
                        .toString());
            }
            case "GET" -> {
                if (existing == null) {
                    yield AwsAnswer.restJsonError(404, "ResourceNotFoundException", "Schedule " + name + " does not exist.");
                }
                ObjectNode out = JSON.createObjectNode().put("Name", name).put("Arn", existing.get("Arn"))
                        .put("GroupName", "default").put("ScheduleExpression", existing.get("ScheduleExpression"))
                        .put("ScheduleExpressionTimezone", existing.get("ScheduleExpressionTimezone"))
                        .put("State", existing.get("State")).put("ActionAfterCompletion", existing.get("ActionAfterCompletion"));
                out.putObject("FlexibleTimeWindow").put("Mode", "OFF");
                out.putObject("Target").put("Arn", existing.get("TargetArn")).put("RoleArn", existing.get("RoleArn"))
                        .put("Input", existing.get("Input"));
                yield AwsAnswer.of(200, "application/json", out.toString());
            }
            case "DELETE" -> {
                if (account.schedules.remove(name) == null) {
                    yield AwsAnswer.restJsonError(404, "ResourceNotFoundException", "Schedule " + name + " does not exist.");
                }
                yield AwsAnswer.of(200, "application/json", "{}");
            }
            default -> AwsAnswer.restJsonError(400, "ValidationException", method + " " + path);
        };
    }

    // ---- S3 (REST-XML, path-style)

    private AwsAnswer s3(AwsCall c) {
        String path = c.path().substring(1);
        int slash = path.indexOf('/');
        String bucket = slash < 0 ? path : path.substring(0, slash);
        String key = slash < 0 ? "" : URLDecoder.decode(path.substring(slash + 1), StandardCharsets.UTF_8);
        Map<String, byte[]> objects = account.buckets.get(bucket);
        if (objects == null) {
            return AwsAnswer.restXmlError(404, "NoSuchBucket", "The specified bucket does not exist",
                    "<BucketName>" + escape(bucket) + "</BucketName>");
        }
        return switch (c.method()) {
            case "PUT" -> {
                objects.put(key, c.body());
                yield AwsAnswer.of(200, "application/xml", "")
                        .with("ETag", "\"" + Integer.toHexString(java.util.Arrays.hashCode(c.body())) + "\"");
            }
            case "GET" -> {
                if (key.isEmpty()) {
                    String prefix = c.query().getOrDefault("prefix", "");
                    StringBuilder b = new StringBuilder("<ListBucketResult xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
                            + "<Name>" + escape(bucket) + "</Name><Prefix>" + escape(prefix) + "</Prefix><IsTruncated>false</IsTruncated>");
                    int n = 0;
                    for (Map.Entry<String, byte[]> o : objects.entrySet()) {
                        if (o.getKey().startsWith(prefix)) {
                            n++;
                            b.append("<Contents><Key>").append(escape(o.getKey())).append("</Key><Size>")
                                    .append(o.getValue().length).append("</Size></Contents>");
                        }
                    }
                    yield AwsAnswer.of(200, "application/xml", b.append("<KeyCount>").append(n)
                            .append("</KeyCount></ListBucketResult>").toString());
                }
                byte[] o = objects.get(key);
                if (o == null) {
                    yield AwsAnswer.restXmlError(404, "NoSuchKey", "The specified key does not exist.",
                            "<Key>" + escape(key) + "</Key>");
                }
                yield new AwsAnswer(200, "application/octet-stream", o, Map.of());
            }
            default -> AwsAnswer.restXmlError(405, "MethodNotAllowed", c.method(), "");
        };
    }
}
