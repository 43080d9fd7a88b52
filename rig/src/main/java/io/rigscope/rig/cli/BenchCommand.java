package io.rigscope.rig.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code rigscope bench ...}: speed checks that print JSON figures. */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Speed checks; each prints its figures (--json for one JSON object).",
        subcommands = {BenchGeneratorCommand.class, BenchServerCommand.class, BenchAnalyzerCommand.class,
            BenchImportK6Command.class})
final class BenchCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }
}
