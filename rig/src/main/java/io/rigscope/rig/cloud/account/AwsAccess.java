package io.rigscope.rig.cloud.account;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.cloudformation.CloudFormationClient;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.iam.IamClient;
import software.amazon.awssdk.services.rds.RdsClient;
import software.amazon.awssdk.services.resourcegroupstaggingapi.ResourceGroupsTaggingApiClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.scheduler.SchedulerClient;
import software.amazon.awssdk.services.ssm.SsmClient;

/**
 * How {@code rigscope cloud} reaches AWS: the region, an optional endpoint every service is sent to (a VPC endpoint or
 * a test's stand-in), the credentials, and the time one call may take. Every client is a sync client on the
 * url-connection HTTP client; a call that cannot connect, or that has no answer within {@link #callTimeout}, fails
 * (two attempts at most), so an endpoint nobody answers is reported in seconds, never waited on.
 *
 * @param region the region
 * @param endpoint where every service's calls go, or null for AWS's own endpoints
 * @param credentials the credentials provider (the SDK's default chain on the command line)
 * @param callTimeout the most one call may take, retries included
 */
public record AwsAccess(Region region, URI endpoint, AwsCredentialsProvider credentials, Duration callTimeout) {

    /** The default {@link #callTimeout}. */
    public static final Duration DEFAULT_CALL_TIMEOUT = Duration.ofSeconds(20);
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(3);

    public AwsAccess {
        Objects.requireNonNull(region, "region");
        Objects.requireNonNull(credentials, "credentials");
        Objects.requireNonNull(callTimeout, "callTimeout");
    }

    private <B extends AwsClientBuilder<B, C>, C> C build(B builder, Region clientRegion) {
        builder.region(clientRegion).credentialsProvider(credentials)
                .overrideConfiguration(ClientOverrideConfiguration.builder()
                        .apiCallTimeout(callTimeout)
                        .apiCallAttemptTimeout(callTimeout.dividedBy(2))
                        .retryStrategy(AwsRetryStrategy.standardRetryStrategy().toBuilder().maxAttempts(2).build())
                        .build());
        if (endpoint != null) {
            builder.endpointOverride(endpoint);
        }
        return builder.build();
    }

    private static UrlConnectionHttpClient.Builder http(Duration callTimeout) {
        return UrlConnectionHttpClient.builder().connectionTimeout(CONNECT_TIMEOUT).socketTimeout(callTimeout);
    }

    public CloudFormationClient cloudFormation() {
        return build(CloudFormationClient.builder().httpClientBuilder(http(callTimeout)), region);
    }

    public SchedulerClient scheduler() {
        return build(SchedulerClient.builder().httpClientBuilder(http(callTimeout)), region);
    }

    public ResourceGroupsTaggingApiClient tagging() {
        return build(ResourceGroupsTaggingApiClient.builder().httpClientBuilder(http(callTimeout)), region);
    }

    /** IAM is global: its calls are signed for {@code aws-global}. */
    public IamClient iam() {
        return build(IamClient.builder().httpClientBuilder(http(callTimeout)), Region.AWS_GLOBAL);
    }

    public Ec2Client ec2() {
        return build(Ec2Client.builder().httpClientBuilder(http(callTimeout)), region);
    }

    public RdsClient rds() {
        return build(RdsClient.builder().httpClientBuilder(http(callTimeout)), region);
    }

    /** Path-style addressing when an endpoint is given (a stand-in has no bucket subdomains). */
    public S3Client s3() {
        return build(S3Client.builder().httpClientBuilder(http(callTimeout)).forcePathStyle(endpoint != null), region);
    }

    public SsmClient ssm() {
        return build(SsmClient.builder().httpClientBuilder(http(callTimeout)), region);
    }

    /**
     * An AWS call that could not be made or was refused: no credentials, access denied, or an endpoint that does not
     * answer. Its message is the one line {@code cloud check} prints (exit 2).
     */
    public static final class CouldNotLook extends RuntimeException {
        private static final long serialVersionUID = 1L;

        CouldNotLook(String message, Throwable cause) {
            super(message, cause);
        }

        /**
         * The one-line reason {@code call} (e.g. {@code tagging:GetResources}) failed with {@code e}: no credentials,
         * access denied (the service's own code and message), unreachable (the endpoint and the cause), or the service's
         * error as it gave it.
         */
        public static CouldNotLook of(String call, RuntimeException e) {
            if (e instanceof software.amazon.awssdk.awscore.exception.AwsServiceException s) {
                String code = s.awsErrorDetails() == null ? null : s.awsErrorDetails().errorCode();
                String message = s.awsErrorDetails() == null ? s.getMessage() : s.awsErrorDetails().errorMessage();
                boolean denied = s.statusCode() == 403 || (code != null && (code.contains("AccessDenied")
                        || code.equals("UnauthorizedOperation") || code.contains("InvalidClientTokenId")
                        || code.contains("UnrecognizedClient") || code.contains("ExpiredToken")
                        || code.contains("SignatureDoesNotMatch")));
                return new CouldNotLook((denied ? "access denied: " : "AWS refused: ") + call + " answered " + code + ": "
                        + firstLine(message), e);
            }
            String text = firstLine(e.getMessage());
            if (text.startsWith("Unable to load credentials")) {
                return new CouldNotLook("no AWS credentials: none in the environment, the system properties, "
                        + "~/.aws/credentials, a container or the instance profile (nothing was sent)", e);
            }
            Throwable root = e;
            while (root.getCause() != null && root.getCause() != root) {
                root = root.getCause();
            }
            String why = root == e ? text : root.getClass().getSimpleName() + ": " + firstLine(root.getMessage());
            return new CouldNotLook("endpoint unreachable: " + call + " got no answer (" + why + ")", e);
        }

        private static String firstLine(String s) {
            return s == null ? "" : s.lines().findFirst().orElse("");
        }
    }
}
