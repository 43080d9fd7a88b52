package io.rigscope.rig.cli.cloud;

import io.rigscope.rig.options.ExitCodes;
import io.rigscope.rig.cloud.account.AwsAccess;
import io.rigscope.rig.cloud.account.StackLifecycle;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code rigscope cloud down SERIES}: the stack, the schedule and the role deleted, then waited for. */
@Command(name = "down", mixinStandardHelpOptions = true,
        description = {"Delete the series' stack (a line per stack event), its expiry schedule and role, then wait "
            + "until nothing tagged with the series remains (the evidence bucket is kept on purpose).",
            "Exit 0: gone. Exit 1: something remains (the stack's delete failed, or --timeout passed), named. Exit 2: could "
            + "not look."})
final class CloudDownCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "SERIES", description = "The series id.")
    String series;

    @Option(names = "--timeout", paramLabel = "DURATION", description = "Give up waiting after this long (default: 60m).")
    Duration timeout = Duration.ofMinutes(60);

    @Option(names = "--poll", paramLabel = "DURATION", description = "How often to look while waiting (default: 5s).")
    Duration poll = Duration.ofSeconds(5);

    @Mixin
    AwsOptions aws;

    @Override
    public Integer call() {
        var access = aws.access(null);
        List<AwsAccess.Inventory.Found> remaining;
        try {
            remaining = new StackLifecycle(access, System.out::println, poll).down(series, timeout);
        } catch (AwsAccess.CouldNotLook e) {
            System.err.println("rigscope cloud down: COULD NOT LOOK: " + e.getMessage());
            return CloudCheckCommand.COULD_NOT_LOOK;
        }
        if (!remaining.isEmpty()) {
            remaining.forEach(f -> System.out.println("REMAINS " + f.kind() + " " + f.arn()));
            System.err.println("rigscope cloud down: " + remaining.size() + " tagged " + series + " remain (named "
                    + "above; cloud check lists them with their cost)");
            return CloudCheckCommand.REMAINS;
        }
        System.out.println("down: nothing tagged " + series + " remains in " + access.region().id());
        return ExitCodes.OK;
    }
}
