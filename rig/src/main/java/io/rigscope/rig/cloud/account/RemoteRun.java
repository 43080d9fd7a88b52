package io.rigscope.rig.cloud.account;

import io.rigscope.rig.cloud.CloudSection;
import io.rigscope.rig.cloud.template.StackTemplate;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.cloudformation.CloudFormationClient;
import software.amazon.awssdk.services.cloudformation.model.Stack;
import software.amazon.awssdk.services.resourcegroupstaggingapi.ResourceGroupsTaggingApiClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;
import software.amazon.awssdk.services.ssm.SsmClient;
import software.amazon.awssdk.services.ssm.model.GetCommandInvocationResponse;
import software.amazon.awssdk.services.ssm.model.InvocationDoesNotExistException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.rigscope.rig.plan.ScenarioSpec;
import io.rigscope.sut.SutContract;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * A series run on load node 1 through SSM Run Command ({@code AWS-RunShellScript}), its console lines printed as they
 * arrive (GetCommandInvocation, polled), then the stack's side of the evidence (template, plan with the cost, stack
 * events) put beside the node's in {@code s3://BUCKET/evidence/SERIES/}; and {@link #fetch} to bring it all here.
 */
public final class RemoteRun {

    private final AwsAccess aws;
    private final Consumer<String> out;
    private final Duration poll;
    private final ExpirySchedule.Sleeper sleeper = ExpirySchedule.Sleeper.real();

    public RemoteRun(AwsAccess aws, Consumer<String> out, Duration poll) {
        this.aws = Objects.requireNonNull(aws, "aws");
        this.out = Objects.requireNonNull(out, "out");
        this.poll = Objects.requireNonNull(poll, "poll");
    }

    /** The rig's expiry: its stack's {@code rigscope:expires-at} tag (which {@code cloud extend} moves). */
    public Instant expiresAt(String series) {
        try (CloudFormationClient cfn = aws.cloudFormation()) {
            return AwsAccess.Inventory.call("cloudformation:DescribeStacks", () -> cfn.describeStacks(b -> b
                    .stackName(CloudSection.Names.stackName(series))).stacks().get(0)).tags().stream()
                    .filter(t -> t.key().equals(CloudSection.Names.TAG_EXPIRES_AT)).map(t -> Instant.parse(t.value()))
                    .findFirst().orElse(Instant.MAX);
        }
    }

    /** The series' stack outputs (DescribeStacks). */
    public Map<String, String> outputs(String series) {
        try (CloudFormationClient cfn = aws.cloudFormation()) {
            Stack s = AwsAccess.Inventory.call("cloudformation:DescribeStacks", () -> cfn.describeStacks(b -> b
                    .stackName(CloudSection.Names.stackName(series))).stacks().get(0));
            if (!"CREATE_COMPLETE".equals(s.stackStatusAsString()) && !"UPDATE_COMPLETE".equals(s.stackStatusAsString())) {
                throw new IllegalStateException("stack " + s.stackName() + " is " + s.stackStatusAsString());
            }
            Map<String, String> outputs = new LinkedHashMap<>();
            s.outputs().forEach(o -> outputs.put(o.outputKey(), o.outputValue()));
            return outputs;
        }
    }

    /**
     * Runs {@code commands} on {@code instanceId} and prints its output as it arrives; returns the command's exit code
     * (-1 when SSM reports none).
     */
    public int run(String instanceId, List<String> commands, Duration timeout) {
        return run(instanceId, commands, timeout, () -> Instant.MAX);
    }

    /** The run reached the rig's expiry: the caller tears the rig down (the watchdog). */
    public static final class ExpiryReached extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final transient Instant expiresAt;

        ExpiryReached(Instant expiresAt) {
            super("the rig's expiry " + expiresAt + " was reached during the run");
            this.expiresAt = expiresAt;
        }

        public Instant expiresAt() {
            return expiresAt;
        }
    }

    /**
     * The same, watching the rig's expiry: once {@code expiresAt} (read at every poll: {@code cloud extend} moves it)
     * has passed, {@link ExpiryReached} is thrown, so the process running the series tears the rig down even where
     * the schedule could not be made or did not run.
     */
    public int run(String instanceId, List<String> commands, Duration timeout,
                   java.util.function.Supplier<Instant> expiresAt) {
        try (SsmClient ssm = aws.ssm()) {
            String commandId = AwsAccess.Inventory.call("ssm:SendCommand", () -> ssm.sendCommand(b -> b
                    .documentName("AWS-RunShellScript").instanceIds(instanceId).comment("rigscope cloud run")
                    .timeoutSeconds(600)
                    .parameters(Map.of("commands", commands,
                            "executionTimeout", List.of(Long.toString(timeout.toSeconds())))))).command().commandId();
            out.accept("ssm command " + commandId + " on " + instanceId);
            int printed = 0;
            Instant giveUp = Instant.now().plus(timeout).plus(Duration.ofMinutes(5));
            while (true) {
                GetCommandInvocationResponse r;
                try {
                    r = ssm.getCommandInvocation(b -> b.commandId(commandId).instanceId(instanceId));
                } catch (InvocationDoesNotExistException e) {
                    r = null; // SSM takes a moment to register the invocation
                } catch (RuntimeException e) {
                    throw AwsAccess.CouldNotLook.of("ssm:GetCommandInvocation", e);
                }
                if (r != null) {
                    String text = r.standardOutputContent() == null ? "" : r.standardOutputContent();
                    int end = text.lastIndexOf('\n') + 1;
                    if (end > printed) {
                        text.substring(printed, end).lines().forEach(l -> out.accept("  | " + l));
                        printed = end;
                    }
                    String status = r.statusAsString();
                    if (!List.of("Pending", "InProgress", "Delayed").contains(status)) {
                        if (text.length() > printed) {
                            text.substring(printed).lines().forEach(l -> out.accept("  | " + l));
                        }
                        if (r.standardErrorContent() != null && !r.standardErrorContent().isBlank()) {
                            r.standardErrorContent().lines().forEach(l -> out.accept("  ! " + l));
                        }
                        out.accept("ssm command " + status + ", exit " + r.responseCode());
                        return r.responseCode() == null ? -1 : r.responseCode();
                    }
                }
                Instant expiry = expiresAt.get();
                if (!Instant.now().isBefore(expiry)) {
                    out.accept("expiry " + expiry + " reached while the series runs: tearing the rig down (watchdog)");
                    throw new ExpiryReached(expiry);
                }
                if (Instant.now().isAfter(giveUp)) {
                    throw new IllegalStateException("ssm command " + commandId + " still running after " + timeout);
                }
                sleeper.sleep(poll);
            }
        }
    }

    /** Puts each file as {@code evidence/SERIES/NAME} beside what the node wrote. */
    public void putEvidence(String bucket, String series, Map<String, byte[]> files) {
        try (S3Client s3 = aws.s3()) {
            files.forEach((name, bytes) -> AwsAccess.Inventory.call("s3:PutObject", () -> s3.putObject(b -> b.bucket(bucket)
                    .key(Series.EVIDENCE_PREFIX + series + "/" + name), RequestBody.fromBytes(bytes))));
        }
        out.accept("evidence: " + files.keySet() + " put in s3://" + bucket + "/" + Series.EVIDENCE_PREFIX
                + series + "/");
    }

    /** The series' stack events, oldest first, one JSON object per line. */
    public byte[] stackEvents(String series) {
        try (CloudFormationClient cfn = aws.cloudFormation()) {
            List<String> lines = new ArrayList<>();
            AwsAccess.Inventory.call("cloudformation:DescribeStackEvents", () -> cfn.describeStackEventsPaginator(b -> b
                    .stackName(CloudSection.Names.stackName(series))).stackEvents().stream().toList()).forEach(e -> {
                        var n = new com.fasterxml.jackson.databind.ObjectMapper().createObjectNode()
                                .put("timestamp", String.valueOf(e.timestamp())).put("logical_id", e.logicalResourceId())
                                .put("type", e.resourceType()).put("status", e.resourceStatusAsString())
                                .put("reason", e.resourceStatusReason());
                        lines.add(0, n.toString());
                    });
            return (String.join("\n", lines) + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    /**
     * Brings {@code s3://BUCKET/evidence/SERIES/} into {@code dir}; the bucket is found by its tags (it outlives the
     * stack). Returns the files written.
     */
    public List<Path> fetch(String series, Path dir) {
        String bucket;
        try (ResourceGroupsTaggingApiClient tagging = aws.tagging()) {
            bucket = AwsAccess.Inventory.call("tagging:GetResources", () -> tagging.getResourcesPaginator(b -> b
                    .resourceTypeFilters("s3").tagFilters(f -> f.key(CloudSection.Names.TAG_SERIES).values(series),
                            f -> f.key(CloudSection.Names.TAG_ROLE).values(CloudSection.Names.ROLE_EVIDENCE)))
                    .resourceTagMappingList().stream().map(m -> m.resourceARN()).toList())
                    .stream().findFirst().map(arn -> arn.substring(arn.lastIndexOf(':') + 1))
                    .orElseThrow(() -> new IllegalStateException("no evidence bucket tagged " + CloudSection.Names.TAG_SERIES
                            + "=" + series + " in " + aws.region().id()));
        }
        String prefix = Series.EVIDENCE_PREFIX + series + "/";
        List<Path> written = new ArrayList<>();
        try (S3Client s3 = aws.s3()) {
            List<S3Object> objects = AwsAccess.Inventory.call("s3:ListObjectsV2", () -> s3.listObjectsV2Paginator(b -> b
                    .bucket(bucket).prefix(prefix)).contents().stream().toList());
            for (S3Object o : objects) {
                Path target = dir.resolve(o.key().substring(prefix.length())).normalize();
                if (!target.startsWith(dir.normalize()) || o.key().endsWith("/")) {
                    continue; // a key that would land outside DIR is not written
                }
                byte[] bytes = AwsAccess.Inventory.call("s3:GetObject", () -> s3.getObjectAsBytes(b -> b.bucket(bucket)
                        .key(o.key())).asByteArray());
                try {
                    Files.createDirectories(target.getParent());
                    Files.write(target, bytes);
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot write " + target, e);
                }
                written.add(target);
            }
        }
        out.accept("fetched " + written.size() + " files from s3://" + bucket + "/" + prefix + " to " + dir);
        return written;
    }

    /** The evidence bucket's name from the stack outputs. */
    public static String bucket(Map<String, String> outputs) {
        return Objects.requireNonNull(outputs.get("EvidenceBucketName"), "the stack has no EvidenceBucketName output");
    }

    /** Load node 1's instance id from the stack outputs. */
    public static String loadNode1(Map<String, String> outputs) {
        return Objects.requireNonNull(outputs.get(StackTemplate.loadNode(1) + "InstanceId"),
                "the stack has no LoadNode1InstanceId output");
    }

    /**
     * What {@code cloud run} sends to load node 1: the series file as the node must read it (its {@code cloud:} section
     * out; {@code target} the app node; {@code rds:} the stack's instance; the local-only keys out) and the shell script
     * (SSM {@code AWS-RunShellScript}) that runs it and copies the evidence to the bucket.
     */
    public static final class Series {

        /** Where the node writes the evidence, and the bucket prefix it goes to ({@code evidence/SERIES/}). */
        public static final String EVIDENCE_PREFIX = "evidence/";
        private static final List<String> LOCAL_ONLY = List.of("cloud", "database", "pglog", "pglog_prefix", "pgdata");
        private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

        private Series() {
        }

        /**
         * The series file the node runs.
         *
         * @param outputs the stack's outputs (AppUrl, DatabaseInstanceId)
         */
        public static String seriesFile(Path config, CloudSection.Spec spec, Map<String, String> outputs) {
            ObjectNode root = (ObjectNode) ScenarioSpec.Yaml.readFile(config).deepCopy();
            LOCAL_ONLY.forEach(root::remove);
            root.put("series", spec.series());
            ObjectNode target = root.has("target") && root.get("target").isObject() ? (ObjectNode) root.get("target")
                    : root.putObject("target");
            target.remove("pid");
            target.put("url", required(outputs, "AppUrl"));
            if (spec.app() == null || spec.app().image() == null) {
                // the app node runs the reference SUT: its key and tenant, as rigscope would use when it starts one
                if (!target.has("api_key")) {
                    target.put("api_key", SutContract.API_KEY);
                }
                if (!target.has("tenant")) {
                    target.put("tenant", SutContract.TENANT);
                }
            }
            ObjectNode rds = root.putObject("rds");
            rds.put("db_instance", required(outputs, "DatabaseInstanceId"));
            rds.put("region", spec.region());
            try {
                return YAML.writeValueAsString(root);
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new IllegalStateException(e);
            }
        }

        /** The script load node 1 runs: the series, then its evidence to {@code s3://bucket/evidence/SERIES/}. */
        public static List<String> script(CloudSection.Spec spec, String seriesFile, String bucket) {
            String b64 = Base64.getEncoder().encodeToString(seriesFile.getBytes(StandardCharsets.UTF_8));
            String dest = "s3://" + bucket + "/" + EVIDENCE_PREFIX + spec.series() + "/";
            return List.of(
                    "set -uo pipefail",
                    "cd /opt/rigscope",
                    "test -f /opt/rigscope/ready || { echo 'rigscope: this node is still installing (no /opt/rigscope/ready)'; exit 3; }",
                    "set -a; . /opt/rigscope/pg.env; set +a",
                    "echo '" + b64 + "' | base64 -d > series.yaml",
                    "rm -rf evidence && mkdir -p evidence",
                    "rigscope run --config series.yaml --pg \"$RIGSCOPE_PG\" --data-dir /opt/rigscope/kafka"
                            + " --out evidence/records.jsonl --report-json evidence/report.json"
                            + " --report-md evidence/report.md --report-html evidence/report.html",
                    "status=$?",
                    "cp series.yaml evidence/series.yaml",
                    "aws s3 cp --recursive --region " + spec.region() + " evidence " + dest,
                    "echo \"rigscope: run exited $status; evidence in " + dest + "\"",
                    "exit $status");
        }

        private static String required(Map<String, String> outputs, String key) {
            String v = outputs.get(key);
            if (v == null || v.isBlank()) {
                throw new IllegalStateException("the stack has no output " + key + " (was it made by this rigscope?)");
            }
            return v;
        }
    }
}
