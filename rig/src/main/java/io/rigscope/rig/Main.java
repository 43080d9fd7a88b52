package io.rigscope.rig;

import io.rigscope.rig.cli.RigscopeCommand;

/** The {@code rigscope} command's entry point. */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) {
        ConsoleLogging.configure();
        System.exit(run(args));
    }

    /** Runs the command line and returns its exit code (0 ok, 2 usage or config error, 99 gates failed). */
    public static int run(String... args) {
        return RigscopeCommand.commandLine().execute(args);
    }
}
