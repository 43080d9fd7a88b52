package io.rigscope.collectors.aws;

import java.net.URI;
import java.util.Objects;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.awscore.client.builder.AwsSyncClientBuilder;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain;

/**
 * How the RDS collectors reach AWS: region, an optional endpoint override (tests, VPC endpoints, proxies) and a
 * credentials provider (the SDK's default chain unless given). Clients are the SDK's synchronous clients on the
 * JDK's URL connection (no Netty, no Apache client); their calls block, so collectors make them on
 * {@code boundedElastic}.
 *
 * <p>{@link #toString()} never shows credentials; no collector logs or records them.
 *
 * @param region the AWS region; null resolves the SDK's default region chain, else {@code us-east-1} when an
 *               endpoint override is given
 * @param endpoint the endpoint every client talks to instead of AWS's, or null
 * @param credentials the credentials provider; null is the SDK's default chain
 */
public record AwsSettings(Region region, URI endpoint, AwsCredentialsProvider credentials) {

    public AwsSettings {
        credentials = credentials == null ? DefaultCredentialsProvider.builder().build() : credentials;
        if (region == null) {
            try {
                region = new DefaultAwsRegionProviderChain().getRegion();
            } catch (RuntimeException e) {
                if (endpoint == null) {
                    throw new IllegalArgumentException("no AWS region: pass --region or set AWS_REGION", e);
                }
                region = Region.US_EAST_1;
            }
        }
    }

    /** Applies region, endpoint, credentials and the URL-connection HTTP client to a client builder. */
    public <B extends AwsClientBuilder<B, C> & AwsSyncClientBuilder<B, C>, C> C build(B builder) {
        Objects.requireNonNull(builder, "builder");
        builder.region(region).credentialsProvider(credentials).httpClientBuilder(UrlConnectionHttpClient.builder());
        if (endpoint != null) {
            builder.endpointOverride(endpoint);
        }
        return builder.build();
    }

    @Override
    public String toString() {
        return "AwsSettings[region=" + region + ", endpoint=" + (endpoint == null ? "default" : endpoint)
                + ", credentials=" + credentials.getClass().getSimpleName() + "]";
    }
}
