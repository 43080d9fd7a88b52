package io.rigscope.rig.cloud.account;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rigscope.rig.cloud.CloudSection;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;
import software.amazon.awssdk.services.iam.IamClient;
import software.amazon.awssdk.services.iam.model.NoSuchEntityException;
import software.amazon.awssdk.services.scheduler.SchedulerClient;
import software.amazon.awssdk.services.scheduler.model.ActionAfterCompletion;
import software.amazon.awssdk.services.scheduler.model.FlexibleTimeWindowMode;
import software.amazon.awssdk.services.scheduler.model.GetScheduleResponse;
import software.amazon.awssdk.services.scheduler.model.ResourceNotFoundException;
import software.amazon.awssdk.services.scheduler.model.ScheduleState;
import software.amazon.awssdk.services.scheduler.model.ValidationException;

/**
 * The rig's own deletion at expiry, outside its stack: an EventBridge Scheduler one-time schedule
 * ({@code at(...)}, UTC) whose target is Scheduler's universal target for CloudFormation {@code DeleteStack}, and the
 * IAM role it assumes, allowed {@code DeleteStack} on that one stack and the deletions CloudFormation makes on its
 * behalf ({@code aws:CalledVia cloudformation.amazonaws.com}) and nothing else. The schedule deletes itself after it
 * runs; the role stays until {@code cloud down}.
 */
final class ExpirySchedule {

    /** Scheduler's universal target for CloudFormation's DeleteStack. */
    static final String DELETE_STACK_TARGET = "arn:aws:scheduler:::aws-sdk:cloudformation:deleteStack";
    private static final String POLICY = "delete-stack-at-expiry";
    private static final DateTimeFormatter AT = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss");
    private static final ObjectMapper JSON = new ObjectMapper();

    /** What CloudFormation deletes for this template, done with the role's credentials when the schedule runs. */
    static final List<String> DELETE_ACTIONS = List.of(
            "ec2:TerminateInstances", "ec2:DeleteSecurityGroup", "ec2:RevokeSecurityGroupIngress", "ec2:DeleteSubnet",
            "ec2:DeleteVpc", "ec2:DeleteRouteTable", "ec2:DeleteRoute", "ec2:DisassociateRouteTable",
            "ec2:DetachInternetGateway", "ec2:DeleteInternetGateway", "ec2:Describe*",
            "rds:DeleteDBInstance", "rds:DeleteDBSubnetGroup", "rds:DeleteDBParameterGroup", "rds:Describe*",
            "iam:DeleteRole", "iam:DeleteRolePolicy", "iam:DetachRolePolicy", "iam:GetRole",
            "iam:RemoveRoleFromInstanceProfile", "iam:DeleteInstanceProfile", "iam:GetInstanceProfile",
            "logs:DeleteLogGroup", "logs:DescribeLogGroups", "secretsmanager:DeleteSecret");

    private ExpirySchedule() {
    }

    /** {@code at(2026-12-06T08:00:00)}. */
    static String expression(Instant at) {
        return "at(" + AT.format(LocalDateTime.ofInstant(at.truncatedTo(ChronoUnit.SECONDS), ZoneOffset.UTC)) + ")";
    }

    /** The instant an {@code at(...)} expression in UTC names. */
    static Instant parse(String expression) {
        String inner = expression.substring(expression.indexOf('(') + 1, expression.lastIndexOf(')'));
        return LocalDateTime.parse(inner, AT).toInstant(ZoneOffset.UTC);
    }

    /** Makes the role and its one policy; returns its ARN. */
    static String createRole(IamClient iam, String region, String series, String stackName, String owner,
                             Instant expiresAt) {
        ObjectNode trust = JSON.createObjectNode().put("Version", "2012-10-17");
        ObjectNode st = trust.putArray("Statement").addObject().put("Effect", "Allow").put("Action", "sts:AssumeRole");
        st.putObject("Principal").put("Service", "scheduler.amazonaws.com");
        String arn = AwsAccess.Inventory.call("iam:CreateRole", () -> iam.createRole(b -> b
                .roleName(CloudSection.Names.expiryRoleName(series)).path(AwsAccess.Inventory.ROLE_PATH)
                .description("rigscope: deletes stack " + stackName + " at its expiry")
                .assumeRolePolicyDocument(trust.toString())
                .tags(t -> t.key(CloudSection.Names.TAG_SERIES).value(series), t -> t.key(CloudSection.Names.TAG_OWNER).value(owner),
                        t -> t.key(CloudSection.Names.TAG_EXPIRES_AT).value(expiresAt.toString())))).role().arn();
        ObjectNode policy = JSON.createObjectNode().put("Version", "2012-10-17");
        ArrayNode statements = policy.putArray("Statement");
        statements.addObject().put("Effect", "Allow").put("Action", "cloudformation:DeleteStack")
                .put("Resource", "arn:aws:cloudformation:" + region + ":*:stack/" + stackName + "/*");
        ObjectNode via = statements.addObject().put("Effect", "Allow").put("Resource", "*");
        DELETE_ACTIONS.forEach(via.putArray("Action")::add);
        via.putObject("Condition").putObject("ForAnyValue:StringEquals")
                .put("aws:CalledVia", "cloudformation.amazonaws.com");
        AwsAccess.Inventory.call("iam:PutRolePolicy", () -> iam.putRolePolicy(b -> b.roleName(CloudSection.Names.expiryRoleName(series))
                .policyName(POLICY).policyDocument(policy.toString())));
        return arn;
    }

    /**
     * Creates the schedule. A role a few seconds old may not be assumable yet (IAM is eventually consistent):
     * Scheduler's ValidationException is retried for up to {@code roleWait}.
     */
    static void create(SchedulerClient scheduler, String series, String stackName, String roleArn, Instant at,
                       Duration roleWait, Sleeper sleeper) {
        Instant giveUp = Instant.now().plus(roleWait);
        while (true) {
            try {
                AwsAccess.Inventory.call("scheduler:CreateSchedule", () -> scheduler.createSchedule(b -> b
                        .name(CloudSection.Names.scheduleName(series))
                        .description("rigscope: deletes stack " + stackName + " at its expiry")
                        .scheduleExpression(expression(at)).scheduleExpressionTimezone("UTC")
                        .flexibleTimeWindow(f -> f.mode(FlexibleTimeWindowMode.OFF))
                        .actionAfterCompletion(ActionAfterCompletion.DELETE).state(ScheduleState.ENABLED)
                        .target(t -> t.arn(DELETE_STACK_TARGET).roleArn(roleArn)
                                .input(JSON.createObjectNode().put("StackName", stackName).toString()))));
                return;
            } catch (AwsAccess.CouldNotLook e) {
                if (!(e.getCause() instanceof ValidationException) || Instant.now().isAfter(giveUp)) {
                    throw e;
                }
                sleeper.sleep(Duration.ofSeconds(5));
            }
        }
    }

    /** Moves the schedule to {@code at}, keeping everything else; returns the time it was set to before. */
    static Instant move(SchedulerClient scheduler, String series, Instant at) {
        GetScheduleResponse s = AwsAccess.Inventory.call("scheduler:GetSchedule", () -> scheduler.getSchedule(b -> b
                .name(CloudSection.Names.scheduleName(series))));
        Instant before = parse(s.scheduleExpression());
        AwsAccess.Inventory.call("scheduler:UpdateSchedule", () -> scheduler.updateSchedule(b -> b.name(s.name())
                .groupName(s.groupName()).description(s.description()).scheduleExpression(expression(at))
                .scheduleExpressionTimezone(s.scheduleExpressionTimezone()).flexibleTimeWindow(s.flexibleTimeWindow())
                .actionAfterCompletion(s.actionAfterCompletion()).state(s.state()).target(s.target())));
        return before;
    }

    /** When the schedule will run. */
    static Instant at(SchedulerClient scheduler, String series) {
        return parse(AwsAccess.Inventory.call("scheduler:GetSchedule", () -> scheduler.getSchedule(b -> b
                .name(CloudSection.Names.scheduleName(series)))).scheduleExpression());
    }

    /** Deletes the schedule and the role; true for each that existed. */
    static boolean[] delete(SchedulerClient scheduler, IamClient iam, String series) {
        boolean schedule = true;
        boolean role = true;
        try {
            scheduler.deleteSchedule(b -> b.name(CloudSection.Names.scheduleName(series)));
        } catch (ResourceNotFoundException e) {
            schedule = false;
        } catch (RuntimeException e) {
            throw AwsAccess.CouldNotLook.of("scheduler:DeleteSchedule", e);
        }
        try {
            iam.deleteRolePolicy(b -> b.roleName(CloudSection.Names.expiryRoleName(series)).policyName(POLICY));
        } catch (NoSuchEntityException e) {
            // already gone
        } catch (RuntimeException e) {
            throw AwsAccess.CouldNotLook.of("iam:DeleteRolePolicy", e);
        }
        try {
            iam.deleteRole(b -> b.roleName(CloudSection.Names.expiryRoleName(series)));
        } catch (NoSuchEntityException e) {
            role = false;
        } catch (RuntimeException e) {
            throw AwsAccess.CouldNotLook.of("iam:DeleteRole", e);
        }
        return new boolean[] {schedule, role};
    }

    /** How the lifecycle waits (a test's is instant). */
    @FunctionalInterface
    interface Sleeper {
        void sleep(Duration d);

        /** Thread.sleep, the interrupt kept. */
        static Sleeper real() {
            return d -> {
                try {
                    Thread.sleep(d.toMillis());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while waiting", e);
                }
            };
        }
    }
}
