package io.rigscope.rig.cloud;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The account {@link CloudStandIn} answers for: stacks (created and deleted one event per step, as CloudFormation
 * reports them), the resources they make (tagged, describable, priced), schedules, roles and buckets. Guarded by the
 * stand-in's single server thread (and {@code synchronized} for the test's own reads).
 */
final class StandInAccount {

    static final String ACCOUNT = "123456789012";
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    final String region;
    final Map<String, Stack> stacks = new LinkedHashMap<>();           // by stack id
    final Map<String, Map<String, String>> tagged = new LinkedHashMap<>(); // ARN -> tags
    final Map<String, String> instanceTypes = new LinkedHashMap<>();   // i-... -> type
    final Map<String, Integer> volumeGb = new LinkedHashMap<>();       // vol-... -> GiB
    final Map<String, Map<String, Object>> databases = new LinkedHashMap<>(); // identifier -> properties
    final Map<String, Map<String, String>> schedules = new LinkedHashMap<>();  // name -> fields
    final Map<String, Map<String, String>> roles = new LinkedHashMap<>();      // name -> fields
    final Map<String, Map<String, byte[]>> buckets = new LinkedHashMap<>();    // bucket -> key -> bytes
    private final AtomicInteger ids = new AtomicInteger(0x1000);
    private String failOn;
    private String failReason;

    StandInAccount(String region) {
        this.region = region;
    }

    private String failDeleteOn;
    private String failDeleteReason;

    /** The next stack deleting {@code logicalId} fails there with {@code reason} (DELETE_FAILED). */
    synchronized void failDeleteOf(String logicalId, String reason) {
        this.failDeleteOn = logicalId;
        this.failDeleteReason = reason;
    }

    /** The next stack creating {@code logicalId} fails there with {@code reason}. */
    synchronized void failCreateOf(String logicalId, String reason) {
        this.failOn = logicalId;
        this.failReason = reason;
    }

    /** A stack, its events (oldest first) and the steps still to come. */
    final class Stack {
        final String id;
        final String name;
        String status = "CREATE_IN_PROGRESS";
        String reason;
        final Map<String, String> tags;
        final Map<String, Object> template;
        final Map<String, String> physical = new LinkedHashMap<>();
        final Map<String, String> outputs = new LinkedHashMap<>();
        final List<Map<String, String>> events = new ArrayList<>();
        final Deque<Runnable> steps = new ArrayDeque<>();
        final List<String> created = new ArrayList<>();

        Stack(String name, Map<String, String> tags, Map<String, Object> template) {
            this.name = name;
            this.id = "arn:aws:cloudformation:" + region + ":" + ACCOUNT + ":stack/" + name + "/" + next();
            this.tags = tags;
            this.template = template;
        }

        void event(String logicalId, String type, String status, String reason) {
            Map<String, String> e = new LinkedHashMap<>();
            e.put("EventId", "e-" + next());
            e.put("LogicalResourceId", logicalId);
            e.put("PhysicalResourceId", logicalId.equals(name) ? id : physical.getOrDefault(logicalId, ""));
            e.put("ResourceType", type);
            e.put("ResourceStatus", status);
            e.put("Timestamp", Instant.now().toString());
            if (reason != null) {
                e.put("ResourceStatusReason", reason);
            }
            events.add(e);
        }

        /** Runs up to {@code n} of the steps still to come. */
        void advance(int n) {
            for (int i = 0; i < n && !steps.isEmpty(); i++) {
                steps.poll().run();
            }
        }

        @SuppressWarnings("unchecked")
        Map<String, Object> resources() {
            return (Map<String, Object>) template.get("Resources");
        }

        @SuppressWarnings("unchecked")
        String typeOf(String logicalId) {
            return (String) ((Map<String, Object>) resources().get(logicalId)).get("Type");
        }
    }

    String next() {
        return Integer.toHexString(ids.incrementAndGet());
    }

    @SuppressWarnings("unchecked")
    synchronized Stack createStack(String name, String templateBody, Map<String, String> stackTags, boolean deleteOnFailure) {
        Map<String, Object> template;
        try {
            template = YAML.readValue(templateBody, Map.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Stack s = new Stack(name, stackTags, template);
        stacks.put(s.id, s);
        s.event(name, "AWS::CloudFormation::Stack", "CREATE_IN_PROGRESS", "User Initiated");
        String failAt = failOn;
        String why = failReason;
        failOn = null;
        for (String logicalId : s.resources().keySet()) {
            String type = s.typeOf(logicalId);
            s.steps.add(() -> {
                s.event(logicalId, type, "CREATE_IN_PROGRESS", null);
                if (logicalId.equals(failAt)) {
                    s.event(logicalId, type, "CREATE_FAILED", why);
                    s.steps.clear();
                    s.status = deleteOnFailure ? "DELETE_IN_PROGRESS" : "ROLLBACK_IN_PROGRESS";
                    s.reason = "The following resource(s) failed to create: [" + logicalId + "]. "
                            + (deleteOnFailure ? "Delete" : "Rollback") + " requested by user.";
                    s.event(name, "AWS::CloudFormation::Stack", s.status, s.reason);
                    teardown(s, deleteOnFailure ? "DELETE_COMPLETE" : "ROLLBACK_COMPLETE");
                    return;
                }
                make(s, logicalId, (Map<String, Object>) s.resources().get(logicalId));
                s.created.add(logicalId);
                s.event(logicalId, type, "CREATE_COMPLETE", null);
            });
        }
        s.steps.add(() -> {
            Map<String, Object> outputs = (Map<String, Object>) s.template.getOrDefault("Outputs", Map.of());
            outputs.forEach((k, v) -> s.outputs.put(k, String.valueOf(resolve(s, ((Map<String, Object>) v).get("Value")))));
            s.status = "CREATE_COMPLETE";
            s.event(name, "AWS::CloudFormation::Stack", "CREATE_COMPLETE", null);
        });
        return s;
    }

    synchronized void deleteStack(Stack s) {
        if (s.status.startsWith("DELETE")) {
            return;
        }
        s.steps.clear();
        s.status = "DELETE_IN_PROGRESS";
        s.event(s.name, "AWS::CloudFormation::Stack", "DELETE_IN_PROGRESS", "User Initiated");
        teardown(s, "DELETE_COMPLETE");
    }

    @SuppressWarnings("unchecked")
    private void teardown(Stack s, String finalStatus) {
        List<String> made = new ArrayList<>(s.created);
        java.util.Collections.reverse(made);
        String failAt = failDeleteOn;
        String why = failDeleteReason;
        failDeleteOn = null;
        for (String logicalId : made) {
            String type = s.typeOf(logicalId);
            boolean retain = "Retain".equals(((Map<String, Object>) s.resources().get(logicalId)).get("DeletionPolicy"));
            s.steps.add(() -> {
                if (logicalId.equals(failAt)) {
                    s.event(logicalId, type, "DELETE_FAILED", why);
                    s.steps.clear();
                    s.status = "DELETE_FAILED";
                    s.reason = "The following resource(s) failed to delete: [" + logicalId + "]. ";
                    s.event(s.name, "AWS::CloudFormation::Stack", "DELETE_FAILED", s.reason);
                    return;
                }
                if (retain) {
                    s.event(logicalId, type, "DELETE_SKIPPED", null);
                    return;
                }
                s.event(logicalId, type, "DELETE_IN_PROGRESS", null);
                unmake(s, logicalId);
                s.event(logicalId, type, "DELETE_COMPLETE", null);
            });
        }
        s.steps.add(() -> {
            s.status = finalStatus;
            s.event(s.name, "AWS::CloudFormation::Stack", finalStatus, null);
        });
    }

    @SuppressWarnings("unchecked")
    private void make(Stack s, String logicalId, Map<String, Object> body) {
        Map<String, Object> props = (Map<String, Object>) body.getOrDefault("Properties", Map.of());
        Map<String, String> tags = new LinkedHashMap<>(s.tags);
        for (Map<String, Object> t : (List<Map<String, Object>>) props.getOrDefault("Tags", List.of())) {
            tags.put(String.valueOf(t.get("Key")), String.valueOf(t.get("Value")));
        }
        String type = (String) body.get("Type");
        String ec2 = "arn:aws:ec2:" + region + ":" + ACCOUNT + ":";
        String phys;
        String arn = null;
        switch (type) {
            case "AWS::EC2::Instance" -> {
                phys = "i-" + next();
                arn = ec2 + "instance/" + phys;
                instanceTypes.put(phys, (String) props.get("InstanceType"));
                String vol = "vol-" + next();
                volumeGb.put(vol, 30);
                tagged.put(ec2 + "volume/" + vol, new LinkedHashMap<>(tags));
                s.physical.put(logicalId + "#volume", vol);
            }
            case "AWS::RDS::DBInstance" -> {
                phys = (String) props.get("DBInstanceIdentifier");
                arn = "arn:aws:rds:" + region + ":" + ACCOUNT + ":db:" + phys;
                databases.put(phys, props);
            }
            case "AWS::S3::Bucket" -> {
                phys = s.name + "-" + logicalId.toLowerCase() + "-" + next();
                arn = "arn:aws:s3:::" + phys;
                buckets.put(phys, new LinkedHashMap<>());
            }
            case "AWS::EC2::VPC" -> arn = ec2 + "vpc/" + (phys = "vpc-" + next());
            case "AWS::EC2::Subnet" -> arn = ec2 + "subnet/" + (phys = "subnet-" + next());
            case "AWS::EC2::SecurityGroup" -> arn = ec2 + "security-group/" + (phys = "sg-" + next());
            case "AWS::EC2::InternetGateway" -> arn = ec2 + "internet-gateway/" + (phys = "igw-" + next());
            case "AWS::EC2::RouteTable" -> arn = ec2 + "route-table/" + (phys = "rtb-" + next());
            case "AWS::Logs::LogGroup" -> arn = "arn:aws:logs:" + region + ":" + ACCOUNT + ":log-group:"
                    + (phys = (String) props.get("LogGroupName"));
            case "AWS::RDS::DBSubnetGroup" -> arn = "arn:aws:rds:" + region + ":" + ACCOUNT + ":subgrp:"
                    + (phys = s.name + "-" + next());
            case "AWS::RDS::DBParameterGroup" -> arn = "arn:aws:rds:" + region + ":" + ACCOUNT + ":pg:"
                    + (phys = s.name + "-" + next());
            default -> phys = s.name + "-" + logicalId + "-" + next();
        }
        s.physical.put(logicalId, phys);
        if (arn != null) {
            tagged.put(arn, tags);
            s.physical.put(logicalId + "#arn", arn);
        }
    }

    private void unmake(Stack s, String logicalId) {
        String arn = s.physical.get(logicalId + "#arn");
        if (arn != null) {
            tagged.remove(arn);
        }
        String vol = s.physical.get(logicalId + "#volume");
        if (vol != null) {
            tagged.remove("arn:aws:ec2:" + region + ":" + ACCOUNT + ":volume/" + vol);
            volumeGb.remove(vol);
        }
        String phys = s.physical.get(logicalId);
        instanceTypes.remove(phys);
        databases.remove(phys);
    }

    private static final Pattern SUB = Pattern.compile("\\$\\{([^}]+)}");

    @SuppressWarnings("unchecked")
    private Object resolve(Stack s, Object value) {
        if (value instanceof Map<?, ?> m && m.size() == 1) {
            Map.Entry<?, ?> e = m.entrySet().iterator().next();
            if (e.getKey().equals("Ref")) {
                return s.physical.getOrDefault((String) e.getValue(), String.valueOf(e.getValue()));
            }
            if (e.getKey().equals("Fn::GetAtt")) {
                List<Object> pair = (List<Object>) e.getValue();
                return attribute(s, (String) pair.get(0), (String) pair.get(1));
            }
            if (e.getKey().equals("Fn::Sub")) {
                Matcher mm = SUB.matcher((String) e.getValue());
                StringBuilder b = new StringBuilder();
                while (mm.find()) {
                    String name = mm.group(1);
                    int dot = name.indexOf('.');
                    mm.appendReplacement(b, Matcher.quoteReplacement(dot < 0 ? s.physical.getOrDefault(name, name)
                            : attribute(s, name.substring(0, dot), name.substring(dot + 1))));
                }
                mm.appendTail(b);
                return b.toString();
            }
        }
        return value;
    }

    private String attribute(Stack s, String logicalId, String attribute) {
        String phys = s.physical.getOrDefault(logicalId, logicalId);
        return switch (attribute) {
            case "Endpoint.Address" -> phys + ".c0ffee.standin.rds.amazonaws.com";
            case "Endpoint.Port" -> "5432";
            case "PrivateIp" -> "10.42.1." + (10 + new ArrayList<>(s.physical.keySet()).indexOf(logicalId));
            case "MasterUserSecret.SecretArn" -> "arn:aws:secretsmanager:" + region + ":" + ACCOUNT + ":secret:rds!db-"
                    + phys;
            default -> phys + "." + attribute;
        };
    }
}
