package io.rigscope.rig;

import io.rigscope.rig.cli.RigscopeCommand;
import io.rigscope.rig.options.ConsoleLogging;
import reactor.core.publisher.Hooks;

/** The {@code rigscope} command's entry point. */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) {
        ConsoleLogging.configure();
        // an error raised after its pipeline ended (a Kafka send interrupted as the command stops, a broker gone)
        // is one line, not Reactor's default "Operator called default onErrorDropped" and its stack trace
        Hooks.onErrorDropped(e -> System.err.println("rigscope: an error after its pipeline ended: "
                + oneLine(e)));
        System.exit(run(args));
    }

    /** {@code SimpleName: message} of the exception and its root cause, on one line. */
    static String oneLine(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String text = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
        if (root != e) {
            text += "; cause: " + root.getClass().getSimpleName()
                    + (root.getMessage() == null ? "" : ": " + root.getMessage());
        }
        return text.replaceAll("\\s*\\R\\s*", " ").strip();
    }

    /** Runs the command line and returns its exit code (0 ok, 2 usage or config error, 99 gates failed). */
    public static int run(String... args) {
        return RigscopeCommand.commandLine().execute(args);
    }
}
