package io.rigscope.rig.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code rigscope import FORMAT FILE}: publishes another tool's output as a rigscope series. */
@Command(name = "import", mixinStandardHelpOptions = true,
        description = "Publish another tool's output to the topics as a series the analyzer judges like a live one.",
        subcommands = {ImportK6Command.class})
final class ImportCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }
}
