package io.rigscope.rig.cli.cloud;

import io.rigscope.rig.options.ExitCodes;
import io.rigscope.rig.cloud.account.AwsAccess;
import io.rigscope.rig.cloud.account.RemoteRun;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code rigscope cloud fetch SERIES --out DIR}: the evidence bucket's copy of a series, here. */
@Command(name = "fetch", mixinStandardHelpOptions = true,
        description = {"Bring s3://EVIDENCE-BUCKET/evidence/SERIES/ into DIR (the bucket is found by its tags; it "
            + "outlives the stack). `rigscope rescan DIR` judges it again."})
final class CloudFetchCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "SERIES", description = "The series id.")
    String series;

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "Where the files go.")
    Path out;

    @Mixin
    AwsOptions aws;

    @Override
    public Integer call() {
        try {
            new RemoteRun(aws.access(null), System.out::println, Duration.ofSeconds(5)).fetch(series, out);
        } catch (AwsAccess.CouldNotLook e) {
            System.err.println("rigscope cloud fetch: " + e.getMessage());
            return ExitCodes.ERROR;
        }
        return ExitCodes.OK;
    }
}
