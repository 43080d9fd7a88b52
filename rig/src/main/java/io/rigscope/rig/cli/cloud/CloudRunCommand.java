package io.rigscope.rig.cli.cloud;

import io.rigscope.rig.cloud.CloudSection;
import io.rigscope.rig.options.ExitCodes;
import io.rigscope.rig.cloud.account.AwsAccess;
import io.rigscope.rig.cloud.account.RemoteRun;
import io.rigscope.rig.series.SeriesFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code rigscope cloud run}: the series on load node 1 through SSM, its console here, its evidence to the bucket. */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = {"Run the series on load node 1 through SSM Run Command: `rigscope run` with target the app node, "
            + "rds: the stack's instance, the embedded broker on that node. Its console lines are shown as they "
            + "arrive. Then the node's records, reports and series file, and this side's template, plan (the cost) and "
            + "stack events go to s3://EVIDENCE-BUCKET/evidence/SERIES/ (`cloud fetch` brings them here).",
            "Exit: the remote run's (0, 99 gates failed), 1 when it could not run."})
final class CloudRunCommand implements Callable<Integer> {

    @Option(names = "--config", required = true, paramLabel = "FILE", description = "The series file `cloud up` used.")
    Path config;

    @Option(names = "--series", paramLabel = "ID", description = "The series id (default: the file's series).")
    String series;

    @Option(names = "--dir", paramLabel = "DIR", description = "Where `cloud up` wrote template.yaml and plan.json "
            + "(default: rigscope-cloud/SERIES).")
    Path dir;

    @Option(names = "--timeout", paramLabel = "DURATION", description = "The most the series may take (default: 6h).")
    Duration timeout = Duration.ofHours(6);

    @Option(names = "--poll", paramLabel = "DURATION", description = "How often the node's output is read (default: 5s).")
    Duration poll = Duration.ofSeconds(5);

    @Mixin
    AwsOptions aws;

    @Override
    public Integer call() throws IOException {
        CloudSection.Spec spec = CloudSection.read(config, series);
        Path local = dir != null ? dir : Path.of("rigscope-cloud", spec.series());
        var access = aws.access(spec.region());
        RemoteRun remote = new RemoteRun(access, System.out::println, poll);
        try {
            Map<String, String> outputs = remote.outputs(spec.series());
            String seriesFile = RemoteRun.Series.seriesFile(config, spec, outputs);
            SeriesFile.read(config + " (as load node 1 runs it)", seriesFile, spec.series(), spec.series());
            String bucket = RemoteRun.bucket(outputs);
            System.out.println("rigscope cloud run: series " + spec.series() + " on " + RemoteRun.loadNode1(outputs)
                    + ", target " + outputs.get("AppUrl") + ", rds " + outputs.get("DatabaseInstanceId"));
            int exit;
            try {
                exit = remote.run(RemoteRun.loadNode1(outputs), RemoteRun.Series.script(spec, seriesFile, bucket), timeout,
                        () -> remote.expiresAt(spec.series()));
            } catch (RemoteRun.ExpiryReached e) {
                var remaining = new io.rigscope.rig.cloud.account.StackLifecycle(access, System.out::println, poll)
                        .down(spec.series(), Duration.ofMinutes(60));
                System.err.println("rigscope cloud run: " + e.getMessage() + "; the rig is torn down"
                        + (remaining.isEmpty() ? "" : " except " + remaining.size() + " resources (cloud check names them)"));
                return ExitCodes.ERROR;
            }
            Map<String, byte[]> ours = new LinkedHashMap<>();
            for (String name : List.of("template.yaml", "plan.json")) {
                Path f = local.resolve(name);
                if (Files.isRegularFile(f)) {
                    ours.put(name, Files.readAllBytes(f));
                } else {
                    System.out.println("not in the evidence: " + f + " (no such file; --dir names where cloud up wrote it)");
                }
            }
            ours.put("stack-events.jsonl", remote.stackEvents(spec.series()));
            ours.put("series-as-run.yaml", seriesFile.getBytes(StandardCharsets.UTF_8));
            remote.putEvidence(bucket, spec.series(), ours);
            return exit == 0 || exit == ExitCodes.GATES_FAILED ? exit : ExitCodes.ERROR;
        } catch (AwsAccess.CouldNotLook e) {
            System.err.println("rigscope cloud run: " + e.getMessage());
            return ExitCodes.ERROR;
        }
    }
}
