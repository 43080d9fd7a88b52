package io.rigscope.rig.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code rigscope bench}: the speed checks, each printing JSON figures. */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Benchmarks of rigscope's own parts; each prints its figures (--json for JSON).",
        subcommands = {BenchGeneratorCommand.class})
public final class BenchCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }
}
