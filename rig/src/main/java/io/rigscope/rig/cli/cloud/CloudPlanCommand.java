package io.rigscope.rig.cli.cloud;

import io.rigscope.rig.cloud.CloudSection;
import io.rigscope.rig.options.Durations;
import io.rigscope.rig.options.ExitCodes;
import io.rigscope.rig.options.UsageException;
import io.rigscope.rig.cloud.template.StackTemplate;
import io.rigscope.rig.pricing.PriceTable;
import io.rigscope.rig.series.SeriesFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code rigscope cloud plan}: the template and its hourly cost, offline. */
@Command(name = "plan", mixinStandardHelpOptions = true,
        description = {"Write the CloudFormation template for the series file's cloud: section to DIR/template.yaml and "
            + "print every resource with its hourly USD (the bundled price table), the total, region, AZ and expires_at.",
            "Offline: no credentials, no network."})
final class CloudPlanCommand implements Callable<Integer> {

    @Option(names = "--config", required = true, paramLabel = "FILE", description = "The series file (with cloud:).")
    Path config;

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "Where template.yaml is written.")
    Path out;

    @Option(names = "--json", description = "Print the plan as JSON.")
    boolean json;

    @Option(names = "--series", paramLabel = "ID", description = "The series id (default: the file's series).")
    String series;

    @Option(names = "--owner", paramLabel = "NAME", description = "The rigscope:owner tag (default: this user).")
    String owner;

    @Override
    public Integer call() throws IOException {
        Planned p = plan(config, series, owner, out, Clock.systemUTC());
        System.out.print(json ? p.plan().toJson() + System.lineSeparator()
                : p.plan().toTable(p.spec().series(), Durations.text(p.spec().lifetime())));
        return ExitCodes.OK;
    }

    /** A planned rig: its spec, template and priced plan. */
    record Planned(CloudSection.Spec spec, StackTemplate template, StackTemplate.Plan plan, String owner, Instant expiresAt) {
    }

    /** Reads the file, writes {@code DIR/template.yaml} and prices it; shared with {@code cloud up}. */
    static Planned plan(Path config, String series, String owner, Path out, Clock clock) throws IOException {
        CloudSection.Spec spec = CloudSection.read(config, series);
        SeriesFile.read(config, spec.series(), spec.series()); // the rest of the file is what cloud run will run
        String who = owner != null ? owner : System.getProperty("user.name", "unknown");
        if (who.isBlank() || !who.matches("[\\p{L}\\p{N} _.:/=+@-]{1,128}")) {
            throw new UsageException("--owner '" + who + "' is not a tag value (1-128 letters, digits, _.:/=+-@)");
        }
        Instant expiresAt = clock.instant().truncatedTo(ChronoUnit.SECONDS).plus(spec.lifetime());
        StackTemplate template = StackTemplate.of(spec, who, expiresAt);
        int bytes = template.toYaml().getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
        if (bytes > io.rigscope.rig.cloud.account.StackLifecycle.TEMPLATE_BODY_MAX_BYTES) {
            throw new UsageException(config + ": cloud: the template would be " + bytes + " bytes, over CloudFormation's "
                    + io.rigscope.rig.cloud.account.StackLifecycle.TEMPLATE_BODY_MAX_BYTES + "-byte limit for a template "
                    + "body: fewer load nodes (cloud.load.count) or a shorter cloud.app.env");
        }
        Files.createDirectories(out);
        Path file = out.resolve("template.yaml");
        Files.writeString(file, template.toYaml());
        StackTemplate.Plan plan = StackTemplate.Plan.of(spec, template, file, expiresAt, PriceTable.bundled());
        return new Planned(spec, template, plan, who, expiresAt);
    }
}
