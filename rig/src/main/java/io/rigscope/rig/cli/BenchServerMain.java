package io.rigscope.rig.cli;

import io.rigscope.rig.options.ConsoleLogging;

/**
 * The main class of the bench server's JVM in {@code bench generator --vs-peers} (started from the rigscope jar):
 * {@code rigscope bench server ARGS}, as the command runs it, with the command's logging. A class of the commands'
 * layer, so the bench that starts it does not reach back up to {@code Main}.
 */
public final class BenchServerMain {

    private BenchServerMain() {
    }

    public static void main(String[] args) {
        ConsoleLogging.configure();
        String[] command = new String[args.length + 2];
        command[0] = "bench";
        command[1] = "server";
        System.arraycopy(args, 0, command, 2, args.length);
        System.exit(RigscopeCommand.commandLine().execute(command));
    }
}
