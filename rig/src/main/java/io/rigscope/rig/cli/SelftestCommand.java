package io.rigscope.rig.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.rigscope.rig.options.ExitCodes;
import io.rigscope.rig.options.UsageException;
import io.rigscope.rig.selftest.Selftest;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code rigscope selftest [--json]}: the rig's own guarantees on this machine, each with its figure. */
@Command(name = "selftest", mixinStandardHelpOptions = true,
        header = "Check the rig's own guarantees here: broker, analyzer and PostgreSQL restarts, malformed records.",
        description = {"Runs one real series (its own embedded broker, a private PostgreSQL cluster, the reference SUT, "
            + "every local collector, the live analyzer) with three faults: the broker stopped and started mid-repeat, "
            + "an analyzer process killed (SIGKILL) mid-series and restarted, PostgreSQL stopped and started mid-run; "
            + "then 10,000 malformed records on the same broker. Prints one line per guarantee with its figure, then "
            + "SELFTEST OK (exit 0) or SELFTEST FAILED (exit 1). About two minutes; docs/operations.md describes "
            + "each guarantee."})
final class SelftestCommand implements Callable<Integer> {

    @Option(names = "--json", description = "Print the figures as JSON on stdout (progress lines go to stderr).")
    boolean json;

    @Option(names = "--keep", paramLabel = "DIR", description = "Keep the broker's data, the wire file and the "
            + "analyzer children's reports and logs here (default: a temp directory, deleted at the end).")
    Path keep;

    @Override
    public Integer call() {
        PrintStream console = json ? System.err : System.out;
        Path dir = workDir();
        Selftest.Result result;
        try {
            result = new Selftest(dir, console).run();
        } finally {
            if (keep == null) {
                deleteTree(dir);
            }
        }
        if (json) {
            result.lines().forEach(System.err::println);
            try {
                System.out.println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
                        .writeValueAsString(result.figures()));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        } else {
            console.println();
            result.lines().forEach(console::println);
        }
        console.println(result.ok() ? "SELFTEST OK" : "SELFTEST FAILED");
        return result.ok() ? ExitCodes.OK : ExitCodes.ERROR;
    }

    private Path workDir() {
        try {
            return keep != null ? Files.createDirectories(keep) : Files.createTempDirectory("rigscope-selftest-");
        } catch (IOException e) {
            throw new UsageException("--keep " + keep + ": cannot create it (" + e.getMessage() + ")");
        }
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a temp directory
        }
    }
}
