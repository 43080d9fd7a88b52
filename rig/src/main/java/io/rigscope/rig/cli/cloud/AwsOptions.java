package io.rigscope.rig.cli.cloud;

import io.rigscope.rig.options.UsageException;
import io.rigscope.rig.cloud.account.AwsAccess;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import picocli.CommandLine.Option;

/** The options every {@code cloud} command that calls AWS shares: region and endpoint. Credentials: the SDK's chain. */
final class AwsOptions {

    @Option(names = "--region", paramLabel = "REGION",
            description = "The AWS region (default: the series file's cloud.region, else AWS_REGION or AWS_DEFAULT_REGION).")
    String region;

    @Option(names = "--endpoint", paramLabel = "URL",
            description = "Send every AWS call here (a VPC endpoint or a local stand-in) instead of AWS's endpoints.")
    String endpoint;

    @Option(names = "--call-timeout", paramLabel = "DURATION",
            description = "The most one AWS call may take, retries included (default: 20s).")
    Duration callTimeout = AwsAccess.DEFAULT_CALL_TIMEOUT;

    /**
     * The access these options give.
     *
     * @param fallbackRegion the series file's region, or null
     */
    public AwsAccess access(String fallbackRegion) {
        String r = region != null ? region : fallbackRegion != null ? fallbackRegion
                : System.getenv("AWS_REGION") != null ? System.getenv("AWS_REGION") : System.getenv("AWS_DEFAULT_REGION");
        if (r == null || r.isBlank()) {
            throw new UsageException("--region is missing (and neither AWS_REGION nor AWS_DEFAULT_REGION is set)");
        }
        if (!r.matches("[a-z]{2}(-[a-z]+)+-\\d+")) {
            throw new UsageException("--region '" + r + "' is not an AWS region name, e.g. us-east-1");
        }
        URI uri = null;
        if (endpoint != null) {
            try {
                uri = new URI(endpoint);
            } catch (URISyntaxException e) {
                throw new UsageException("--endpoint '" + endpoint + "' is not a URL: " + e.getReason());
            }
            if (uri.getHost() == null || !("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))) {
                throw new UsageException("--endpoint '" + endpoint + "' is not an http(s) URL with a host");
            }
        }
        if (callTimeout.compareTo(Duration.ofSeconds(1)) < 0 || callTimeout.compareTo(Duration.ofMinutes(5)) > 0) {
            throw new UsageException("--call-timeout must be between 1s and 5m, was " + callTimeout);
        }
        return new AwsAccess(software.amazon.awssdk.regions.Region.of(r), uri,
                software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider.builder().build(), callTimeout);
    }
}
