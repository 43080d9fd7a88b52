package io.rigscope.rig.cli;

import io.rigscope.rig.options.Durations;
import io.rigscope.rig.options.ExitCodes;
import io.rigscope.rig.options.UsageException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The top-level {@code rigscope} command: its subcommands are the rig's jobs.
 *
 * <p>Descriptions are one string per paragraph, never broken by hand: picocli wraps them to the terminal's width
 * ({@link #commandLine()}), and a hard break inside a sentence shows as a ragged line at any other width.
 */
@Command(name = "rigscope",
        mixinStandardHelpOptions = true,
        version = "rigscope 0.1.0",
        description = {
            "A benchmark rig for Postgres-backed HTTP services.",
            "Open-loop load, host and database telemetry through Kafka, and an analyzer that decides live "
            + "(freeze-seconds, windows, gates, verdicts).",
            "",
            "Exit codes: 0 ok, 1 run error, 2 usage or config error, 99 gates failed."},
        subcommands = {
            TopicsCommand.class,
            TailCommand.class,
            DemoCommand.class,
            CalibrateCommand.class,
            SelftestCommand.class,
            BrokerCommand.class,
            RecoverCommand.class,
            RunCommand.class,
            AnalyzeCommand.class,
            CompareCommand.class,
            ExperimentCommand.class,
            DashboardCommand.class,
            ImportCommand.class,
            RescanCommand.class,
            GenerateCommand.class,
            BenchCommand.class,
            SutCommand.class,
            SeedCommand.class,
            DenominatorCommand.class,
            EnvironmentCommand.class,
            io.rigscope.rig.cli.CollectCommand.class,
            BringUpCommand.class,
            io.rigscope.rig.cli.cloud.CloudCommand.class,
            CommandLine.HelpCommand.class
        })
public final class RigscopeCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    /** Help's width where the terminal's cannot be found (a pipe, a file): an ordinary terminal's. */
    public static final int USAGE_WIDTH = 80;

    /**
     * The configured command line: usage errors and {@link UsageException} exit 2 with a message; help of every
     * command wraps to the terminal's width, or {@link #USAGE_WIDTH} when it cannot be found.
     */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new RigscopeCommand());
        cl.registerConverter(java.time.Duration.class, new Durations.Converter());
        cl.setUsageHelpWidth(USAGE_WIDTH);
        cl.setUsageHelpAutoWidth(true);
        cl.setExitCodeExceptionMapper(e -> e instanceof UsageException ? ExitCodes.USAGE : ExitCodes.ERROR);
        cl.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            if (e instanceof UsageException) {
                commandLine.getErr().println("rigscope: " + e.getMessage());
                return ExitCodes.USAGE;
            }
            commandLine.getErr().println("rigscope: " + (e.getMessage() == null ? e.toString() : e.getMessage()));
            if (System.getenv("RIGSCOPE_DEBUG") != null) {
                e.printStackTrace(commandLine.getErr());
            }
            return ExitCodes.ERROR;
        });
        cl.setParameterExceptionHandler((e, args) -> {
            CommandLine c = e.getCommandLine();
            c.getErr().println("rigscope: " + e.getMessage());
            c.getErr().println("Try '" + c.getCommandSpec().qualifiedName() + " --help'.");
            return ExitCodes.USAGE;
        });
        return cl;
    }
}
