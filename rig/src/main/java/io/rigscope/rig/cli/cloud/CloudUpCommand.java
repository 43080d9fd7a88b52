package io.rigscope.rig.cli.cloud;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.rigscope.rig.cloud.CloudSection;
import io.rigscope.rig.options.ExitCodes;
import io.rigscope.rig.options.UsageException;
import io.rigscope.rig.cloud.account.AwsAccess;
import io.rigscope.rig.cloud.account.StackLifecycle;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code rigscope cloud up}: the expiry first, then the stack. */
@Command(name = "up", mixinStandardHelpOptions = true,
        description = {"Stand the rig up: first an EventBridge Scheduler one-time schedule (outside the stack) that "
            + "deletes the stack at expires_at, then CreateStack with a line per stack event. rigscope's jar goes to "
            + "the evidence bucket as soon as it exists; the nodes install it.",
            "A create that fails is deleted (what it made, the schedule and its role), naming the resource that failed "
            + "and why; exit 1. DIR gets template.yaml, plan.json and, once created, outputs.json."})
final class CloudUpCommand implements Callable<Integer> {

    @Option(names = "--config", required = true, paramLabel = "FILE", description = "The series file (with cloud:).")
    Path config;

    @Option(names = "--out", paramLabel = "DIR", description = "Where the template, plan and outputs go (default: "
            + "rigscope-cloud/SERIES).")
    Path out;

    @Option(names = "--series", paramLabel = "ID", description = "The series id (default: the file's series).")
    String series;

    @Option(names = "--owner", paramLabel = "NAME", description = "The rigscope:owner tag (default: this user).")
    String owner;

    @Option(names = "--jar", paramLabel = "FILE", description = "The rigscope jar the nodes install (default: the "
            + "jar this command runs from).")
    Path jar;

    @Option(names = "--timeout", paramLabel = "DURATION", description = "Give up waiting for the stack after this "
            + "long (default: 90m).")
    Duration timeout = Duration.ofMinutes(90);

    @Option(names = "--poll", paramLabel = "DURATION", description = "How often the stack's events are read "
            + "(default: 5s).")
    Duration poll = Duration.ofSeconds(5);

    @Mixin
    AwsOptions aws;

    @Override
    public Integer call() throws IOException {
        CloudSection.Spec spec0 = CloudSection.read(config, series);
        Path dir = out != null ? out : Path.of("rigscope-cloud", spec0.series());
        Path jarFile = jar != null ? jar : runningJar();
        if (!Files.isRegularFile(jarFile)) {
            throw new UsageException("--jar " + jarFile + ": no such file");
        }
        if (aws.region != null && !aws.region.equals(spec0.region())) {
            throw new UsageException("--region " + aws.region + " differs from cloud.region " + spec0.region()
                    + " in " + config);
        }
        CloudPlanCommand.Planned p = CloudPlanCommand.plan(config, series, owner, dir, Clock.systemUTC());
        Files.writeString(dir.resolve("plan.json"), p.plan().toJson());
        System.out.printf("rigscope cloud up: series %s, stack %s, %s (%s), expires %s, %.4f USD/hour%s%n",
                p.spec().series(), p.spec().stackName(), p.spec().region(), p.spec().availabilityZone(), p.expiresAt(),
                p.plan().hourlyUsdTotal(), p.plan().totalIsPartial() ? " or more (a price is unknown)" : "");
        StackLifecycle.Outcome outcome;
        try {
            outcome = new StackLifecycle(aws.access(p.spec().region()), System.out::println, poll)
                    .up(p.spec(), p.template(), p.owner(), p.expiresAt(), jarFile, timeout);
        } catch (AwsAccess.CouldNotLook e) {
            System.err.println("rigscope cloud up: " + e.getMessage());
            return ExitCodes.ERROR;
        }
        if (!outcome.created()) {
            System.err.println("rigscope cloud up: the create failed at " + outcome.failedResource() + ": "
                    + outcome.reason() + "; what it made is deleted (an evidence bucket, once made, is kept)");
            return ExitCodes.ERROR;
        }
        Files.writeString(dir.resolve("outputs.json"), new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
                .writeValueAsString(new java.util.TreeMap<>(outcome.outputs())));
        outcome.outputs().entrySet().stream().sorted(java.util.Map.Entry.comparingByKey())
                .forEach(e -> System.out.println("  " + e.getKey() + " = " + e.getValue()));
        System.out.println("up: " + p.spec().stackName() + " deletes itself at " + p.expiresAt() + " (cloud extend "
                + p.spec().series() + " --by 2h to keep it longer; cloud down " + p.spec().series() + " to end it now)");
        return ExitCodes.OK;
    }

    private static Path runningJar() {
        try {
            Path self = Path.of(CloudUpCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            if (self.toString().endsWith(".jar")) {
                return self;
            }
        } catch (java.net.URISyntaxException | SecurityException e) {
            // fall through
        }
        throw new UsageException("--jar is missing: this command does not run from a jar (build rig/target/rigscope.jar "
                + "and pass it)");
    }
}
