package io.rigscope.rig.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.rigscope.rig.environment.EnvironmentFacts;
import io.rigscope.rig.options.ExitCodes;
import io.rigscope.rig.options.PgTarget;
import io.rigscope.rig.options.UsageException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code rigscope environment}: prints the facts an ENVIRONMENT marker carries. */
@Command(name = "environment", mixinStandardHelpOptions = true,
        description = {"Print the environment facts a series publishes, as JSON.",
            "CPU, memory, disk, PostgreSQL version and the settings that matter, cost per hour:",
            "the data of an ENVIRONMENT marker."})
final class EnvironmentCommand implements Callable<Integer> {

    @Option(names = "--pg", required = true, paramLabel = "URL", description = "The database: " + PgTarget.URL_FORM + ".")
    String pg;

    @Option(names = "--disk-path", paramLabel = "DIR",
            description = "A path on the filesystem that matters, e.g. the data directory (default: the working directory).")
    Path diskPath = Path.of(".");

    @Option(names = "--cost-per-hour", paramLabel = "PRICE", description = "The setup's price per hour, recorded as cost_per_hour.")
    Double costPerHour;

    @Override
    public Integer call() throws Exception {
        if (costPerHour != null && (costPerHour < 0 || costPerHour.isNaN())) {
            throw new UsageException("--cost-per-hour must be >= 0, got " + costPerHour);
        }
        EnvironmentFacts facts = EnvironmentFacts.collect(PgTarget.parse(pg), diskPath, costPerHour);
        System.out.println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
                .writeValueAsString(facts.toEnvironment().facts()));
        return ExitCodes.OK;
    }
}
