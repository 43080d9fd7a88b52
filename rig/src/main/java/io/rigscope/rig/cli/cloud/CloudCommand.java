package io.rigscope.rig.cli.cloud;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code rigscope cloud}: the rig on AWS, from the series file's {@code cloud:} section. */
@Command(name = "cloud", mixinStandardHelpOptions = true,
        description = {"Plan, stand up, extend, tear down and check a rig on AWS (docs/cloud.md).",
            "plan is offline. up schedules the rig's own deletion at expiry before it creates anything; check lists "
            + "everything tagged rigscope:* with its hourly cost (exit 0 clean, 1 something remains, 2 could not look)."},
        subcommands = {
            CloudPlanCommand.class,
            CloudUpCommand.class,
            CloudExtendCommand.class,
            CloudRunCommand.class,
            CloudFetchCommand.class,
            CloudDownCommand.class,
            CloudCheckCommand.class,
            CommandLine.HelpCommand.class
        })
public final class CloudCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }
}
