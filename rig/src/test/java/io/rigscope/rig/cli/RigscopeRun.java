package io.rigscope.rig.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;

/** One {@code rigscope} command line run in-process, with what it printed on stdout and stderr (for tests). */
public record RigscopeRun(int exit, String out, String err) {

    /** Runs {@code rigscope args...}, capturing System.out/err (and picocli's own writers) while it runs. */
    public static RigscopeRun rigscope(String... args) {
        var out = new ByteArrayOutputStream();
        var err = new ByteArrayOutputStream();
        PrintStream oldOut = System.out;
        PrintStream oldErr = System.err;
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            CommandLine cl = RigscopeCommand.commandLine();
            cl.setOut(new PrintWriter(System.out, true));
            cl.setErr(new PrintWriter(System.err, true));
            int exit = cl.execute(args);
            return new RigscopeRun(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
    }
}
