package io.rigscope.rig.cli.cloud;

import io.rigscope.rig.options.ExitCodes;
import io.rigscope.rig.options.UsageException;
import io.rigscope.rig.cloud.account.AwsAccess;
import io.rigscope.rig.cloud.account.StackLifecycle;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code rigscope cloud extend SERIES --by 2h}: the expiry moved, schedule and tags. */
@Command(name = "extend", mixinStandardHelpOptions = true,
        description = {"Move the series' expiry later: its schedule (UpdateSchedule) and every resource's "
            + "rigscope:expires-at tag (TagResources)."})
final class CloudExtendCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "SERIES", description = "The series id.")
    String series;

    @Option(names = "--by", required = true, paramLabel = "DURATION", description = "How much later, e.g. 2h.")
    Duration by;

    @Mixin
    AwsOptions aws;

    @Override
    public Integer call() {
        if (by.isNegative() || by.isZero() || by.compareTo(Duration.ofDays(7)) > 0) {
            throw new UsageException("--by must be more than 0 and at most 168h, was " + by);
        }
        try {
            new StackLifecycle(aws.access(null), System.out::println, Duration.ofSeconds(5)).extend(series, by);
        } catch (AwsAccess.CouldNotLook e) {
            System.err.println("rigscope cloud extend: " + e.getMessage());
            return ExitCodes.ERROR;
        }
        return ExitCodes.OK;
    }
}
