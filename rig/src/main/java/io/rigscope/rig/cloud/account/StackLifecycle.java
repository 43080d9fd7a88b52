package io.rigscope.rig.cloud.account;

import io.rigscope.rig.cloud.CloudSection;
import io.rigscope.rig.cloud.template.StackTemplate;
import io.rigscope.rig.pricing.PriceTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.cloudformation.CloudFormationClient;
import software.amazon.awssdk.services.cloudformation.model.Capability;
import software.amazon.awssdk.services.cloudformation.model.CloudFormationException;
import software.amazon.awssdk.services.cloudformation.model.OnFailure;
import software.amazon.awssdk.services.cloudformation.model.Stack;
import software.amazon.awssdk.services.cloudformation.model.StackEvent;
import software.amazon.awssdk.services.iam.IamClient;
import software.amazon.awssdk.services.resourcegroupstaggingapi.ResourceGroupsTaggingApiClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.scheduler.SchedulerClient;

/**
 * Stands a rig up ({@link #up}), moves its expiry ({@link #extend}) and deletes it ({@link #down}). Every step prints
 * one line through {@code out}; stack events are printed as CloudFormation reports them (DescribeStackEvents, polled).
 * Calls that fail are {@link AwsAccess.CouldNotLook}.
 */
public final class StackLifecycle {

    /** CloudFormation's limit for a template sent in the request body. */
    public static final int TEMPLATE_BODY_MAX_BYTES = 51_200;

    private final AwsAccess aws;
    private final Consumer<String> out;
    private final Duration poll;
    private final ExpirySchedule.Sleeper sleeper;

    /**
     * @param out where progress lines go
     * @param poll how often the stack and the account are looked at while waiting
     */
    public StackLifecycle(AwsAccess aws, Consumer<String> out, Duration poll) {
        this.aws = Objects.requireNonNull(aws, "aws");
        this.out = Objects.requireNonNull(out, "out");
        this.poll = Objects.requireNonNull(poll, "poll");
        this.sleeper = ExpirySchedule.Sleeper.real();
    }

    /**
     * How a create ended.
     *
     * @param created true when the stack reached CREATE_COMPLETE
     * @param outputs the stack's outputs (empty when not created)
     * @param failedResource the logical id that failed first, or null
     * @param reason CloudFormation's reason for it, or null
     */
    public record Outcome(boolean created, Map<String, String> outputs, String failedResource, String reason) {
        public Outcome {
            outputs = Map.copyOf(outputs);
        }
    }

    /**
     * Schedules the stack's deletion at {@code expiresAt} (role, then schedule), creates the stack, uploads
     * {@code jar} to the evidence bucket as soon as the bucket exists, and waits until the stack is created or has
     * failed. A failed create is deleted (CloudFormation's OnFailure DELETE), and the schedule and role with it.
     */
    public Outcome up(CloudSection.Spec spec, StackTemplate template, String owner, Instant expiresAt, Path jar,
                      Duration timeout) {
        String yaml = template.toYaml();
        if (yaml.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > TEMPLATE_BODY_MAX_BYTES) {
            throw new IllegalStateException("the template is over CloudFormation's " + TEMPLATE_BODY_MAX_BYTES
                    + "-byte limit for a template body");
        }
        String stack = spec.stackName();
        String region = aws.region().id();
        try (IamClient iam = aws.iam(); SchedulerClient scheduler = aws.scheduler();
             CloudFormationClient cfn = aws.cloudFormation(); S3Client s3 = aws.s3()) {
            String roleArn = ExpirySchedule.createRole(iam, region, spec.series(), stack, owner, expiresAt);
            out.accept("expiry role " + roleArn);
            String stackId;
            try {
                ExpirySchedule.create(scheduler, spec.series(), stack, roleArn, expiresAt, Duration.ofMinutes(2),
                        sleeper);
                out.accept("expiry schedule " + CloudSection.Names.scheduleName(spec.series()) + ": DeleteStack " + stack
                        + " at " + expiresAt + " (EventBridge Scheduler, outside the stack)");
                stackId = AwsAccess.Inventory.call("cloudformation:CreateStack", () -> cfn.createStack(b -> b
                        .stackName(stack).templateBody(yaml).onFailure(OnFailure.DELETE)
                        .capabilities(Capability.CAPABILITY_IAM)
                        .tags(t -> t.key(CloudSection.Names.TAG_SERIES).value(spec.series()),
                                t -> t.key(CloudSection.Names.TAG_OWNER).value(owner),
                                t -> t.key(CloudSection.Names.TAG_EXPIRES_AT).value(expiresAt.toString())))).stackId();
            } catch (AwsAccess.CouldNotLook e) {
                // nothing was created: the role and schedule made for it go too (best effort; check names leftovers)
                try {
                    ExpirySchedule.delete(scheduler, iam, spec.series());
                    out.accept("expiry schedule and role deleted (no stack was created)");
                } catch (AwsAccess.CouldNotLook cleanup) {
                    out.accept("could not delete the expiry schedule or role: " + cleanup.getMessage());
                }
                throw e;
            }
            out.accept("stack " + stackId);
            boolean[] uploaded = {false};
            Set<String> seen = new HashSet<>();
            Stack done = follow(cfn, stackId, timeout, seen, e -> {
                if (!uploaded[0] && StackTemplate.EVIDENCE_BUCKET.equals(e.logicalResourceId())
                        && "CREATE_COMPLETE".equals(e.resourceStatusAsString())) {
                    uploaded[0] = true;
                    upload(s3, e.physicalResourceId(), jar);
                }
            });
            if ("CREATE_COMPLETE".equals(done.stackStatusAsString())) {
                Map<String, String> outputs = new LinkedHashMap<>();
                done.outputs().forEach(o -> outputs.put(o.outputKey(), o.outputValue()));
                return new Outcome(true, outputs, null, null);
            }
            StackEvent failed = firstFailure(cfn, stackId).orElse(null);
            if (!done.stackStatusAsString().startsWith("DELETE_COMPLETE")) {
                out.accept("deleting what the failed create left (" + done.stackStatusAsString() + ")");
                AwsAccess.Inventory.call("cloudformation:DeleteStack", () -> cfn.deleteStack(b -> b.stackName(stackId)));
                follow(cfn, stackId, timeout, seen, e -> { });
            }
            ExpirySchedule.delete(scheduler, iam, spec.series());
            out.accept("expiry schedule and role deleted");
            return new Outcome(false, Map.of(), failed == null ? null : failed.logicalResourceId(),
                    failed == null ? done.stackStatusReason() : failed.resourceStatusReason());
        }
    }

    private void upload(S3Client s3, String bucket, Path jar) {
        long bytes;
        try {
            bytes = Files.size(jar);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("cannot read " + jar, e);
        }
        AwsAccess.Inventory.call("s3:PutObject", () -> s3.putObject(b -> b.bucket(bucket).key(StackTemplate.JAR_KEY),
                RequestBody.fromFile(jar)));
        out.accept(String.format(java.util.Locale.ROOT, "uploaded %s (%.1f MB) to s3://%s/%s: the nodes install it",
                jar.getFileName(), bytes / 1e6, bucket, StackTemplate.JAR_KEY));
    }

    /**
     * Prints the stack's events as they arrive until its status is final; returns the stack as last described.
     *
     * @param seen the ids of events already printed (added to as events are printed)
     * @param onEvent called for each new event, oldest first
     */
    private Stack follow(CloudFormationClient cfn, String stackId, Duration timeout, Set<String> seen,
                         Consumer<StackEvent> onEvent) {
        Instant giveUp = Instant.now().plus(timeout);
        while (true) {
            // the status first, then the events: every event up to a final status is printed before returning
            Stack s = AwsAccess.Inventory.call("cloudformation:DescribeStacks",
                    () -> cfn.describeStacks(b -> b.stackName(stackId)).stacks().get(0));
            List<StackEvent> events = new ArrayList<>(AwsAccess.Inventory.call("cloudformation:DescribeStackEvents",
                    () -> cfn.describeStackEvents(b -> b.stackName(stackId)).stackEvents()));
            java.util.Collections.reverse(events);
            for (StackEvent e : events) {
                if (seen.add(e.eventId())) {
                    out.accept(String.format("  %s %-20s %-24s %s%s", e.timestamp() == null ? ""
                                    : e.timestamp().truncatedTo(java.time.temporal.ChronoUnit.SECONDS),
                            e.resourceStatusAsString(), e.logicalResourceId(), e.resourceType(),
                            e.resourceStatusReason() == null ? "" : "  " + e.resourceStatusReason()));
                    onEvent.accept(e);
                }
            }
            if (!s.stackStatusAsString().endsWith("_IN_PROGRESS")) {
                return s;
            }
            String status = s.stackStatusAsString();
            if (Instant.now().isAfter(giveUp)) {
                throw new IllegalStateException("stack " + stackId + " still " + status + " after " + timeout);
            }
            sleeper.sleep(poll);
        }
    }

    private static Optional<StackEvent> firstFailure(CloudFormationClient cfn, String stackId) {
        List<StackEvent> events = new ArrayList<>(AwsAccess.Inventory.call("cloudformation:DescribeStackEvents",
                () -> cfn.describeStackEvents(b -> b.stackName(stackId)).stackEvents()));
        java.util.Collections.reverse(events);
        return events.stream().filter(e -> "CREATE_FAILED".equals(e.resourceStatusAsString())
                        && !"AWS::CloudFormation::Stack".equals(e.resourceType())
                        && (e.resourceStatusReason() == null || !e.resourceStatusReason().contains("cancelled")))
                .findFirst();
    }

    /**
     * Moves the expiry by {@code by}: the schedule (UpdateSchedule) and every resource's {@code rigscope:expires-at}
     * tag (Tagging API TagResources). Returns the new expiry.
     */
    public Instant extend(String series, Duration by) {
        try (SchedulerClient scheduler = aws.scheduler(); ResourceGroupsTaggingApiClient tagging = aws.tagging();
             CloudFormationClient cfn = aws.cloudFormation()) {
            Instant before = ExpirySchedule.at(scheduler, series);
            Instant after = before.plus(by);
            ExpirySchedule.move(scheduler, series, after);
            out.accept("expiry schedule " + CloudSection.Names.scheduleName(series) + ": " + before + " -> " + after);
            List<String> arns = new ArrayList<>();
            AwsAccess.Inventory.call("tagging:GetResources", () -> tagging.getResourcesPaginator(b -> b.tagFilters(f -> f
                    .key(CloudSection.Names.TAG_SERIES).values(series))).resourceTagMappingList().stream()
                    .map(m -> m.resourceARN()).toList()).forEach(arns::add);
            // the stack itself (its tag is what check shows beside it)
            String stackId = AwsAccess.Inventory.call("cloudformation:DescribeStacks", () -> cfn.describeStacks(b -> b
                    .stackName(CloudSection.Names.stackName(series))).stacks().get(0).stackId());
            if (!arns.contains(stackId)) {
                arns.add(stackId);
            }
            for (int i = 0; i < arns.size(); i += 20) {
                List<String> batch = arns.subList(i, Math.min(arns.size(), i + 20));
                var r = AwsAccess.Inventory.call("tagging:TagResources", () -> tagging.tagResources(b -> b.resourceARNList(batch)
                        .tags(Map.of(CloudSection.Names.TAG_EXPIRES_AT, after.toString()))));
                if (r.hasFailedResourcesMap() && !r.failedResourcesMap().isEmpty()) {
                    out.accept("could not re-tag: " + r.failedResourcesMap().keySet());
                }
            }
            out.accept(arns.size() + " resources tagged " + CloudSection.Names.TAG_EXPIRES_AT + "=" + after);
            return after;
        }
    }

    /**
     * Deletes the stack, the schedule and the role, then waits until nothing tagged with the series remains (the
     * evidence bucket, kept on purpose, aside). Returns what still remains at {@code timeout} (empty when clean).
     */
    public List<AwsAccess.Inventory.Found> down(String series, Duration timeout) {
        String stack = CloudSection.Names.stackName(series);
        try (CloudFormationClient cfn = aws.cloudFormation(); SchedulerClient scheduler = aws.scheduler();
             IamClient iam = aws.iam()) {
            Optional<Stack> s;
            try {
                s = Optional.of(cfn.describeStacks(b -> b.stackName(stack)).stacks().get(0));
            } catch (CloudFormationException e) {
                if (e.statusCode() != 400 || e.getMessage() == null || !e.getMessage().contains("does not exist")) {
                    throw AwsAccess.CouldNotLook.of("cloudformation:DescribeStacks", e);
                }
                s = Optional.empty();
            } catch (RuntimeException e) {
                throw AwsAccess.CouldNotLook.of("cloudformation:DescribeStacks", e);
            }
            if (s.isPresent()) {
                String id = s.get().stackId();
                Set<String> seen = new HashSet<>(); // the events before the delete are not news
                AwsAccess.Inventory.call("cloudformation:DescribeStackEvents", () -> cfn.describeStackEvents(b -> b.stackName(id))
                        .stackEvents()).forEach(e -> seen.add(e.eventId()));
                AwsAccess.Inventory.call("cloudformation:DeleteStack", () -> cfn.deleteStack(b -> b.stackName(id)));
                out.accept("deleting stack " + id);
                Stack gone = follow(cfn, id, timeout, seen, e -> { });
                out.accept("stack " + gone.stackStatusAsString());
                if (!"DELETE_COMPLETE".equals(gone.stackStatusAsString())) {
                    // the schedule and role stay: the expiry can still retry the delete; check names what is left
                    out.accept("the delete did not complete: " + (gone.stackStatusReason() == null ? ""
                            : gone.stackStatusReason()));
                    return new AwsAccess.Inventory(aws, PriceTable.bundled()).look(series).remaining();
                }
            } else {
                out.accept("no stack " + stack);
            }
            boolean[] deleted = ExpirySchedule.delete(scheduler, iam, series);
            out.accept("expiry schedule " + (deleted[0] ? "deleted" : "already gone") + ", role "
                    + (deleted[1] ? "deleted" : "already gone"));
        }
        AwsAccess.Inventory inventory = new AwsAccess.Inventory(aws, PriceTable.bundled());
        Instant giveUp = Instant.now().plus(timeout);
        while (true) {
            List<AwsAccess.Inventory.Found> remaining = inventory.look(series).remaining();
            if (remaining.isEmpty() || Instant.now().isAfter(giveUp)) {
                return remaining;
            }
            out.accept("waiting: " + remaining.size() + " tagged " + series + " remain (" + remaining.get(0).arn()
                    + (remaining.size() > 1 ? ", ..." : "") + ")");
            sleeper.sleep(poll);
        }
    }
}
