package io.rigscope.rig.rds;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;

/**
 * The availability zone of the host rigscope runs on, from the EC2 instance metadata service (IMDSv2: a session
 * token from {@code PUT /latest/api/token}, then {@code GET /latest/meta-data/placement/availability-zone}), with a
 * short timeout: off EC2 nothing answers and the zone is unknown.
 *
 * <p>The endpoint is the AWS SDKs' own setting: {@code AWS_EC2_METADATA_SERVICE_ENDPOINT} in the environment or the
 * {@code aws.ec2MetadataServiceEndpoint} system property (tests point it at a stand-in), else
 * {@code http://169.254.169.254}. {@code AWS_EC2_METADATA_DISABLED=true} (or {@code aws.disableEc2Metadata}) skips
 * the lookup. Blocking; call from a command thread.
 */
final class LoadHostZone {

    /** How long the metadata service has to answer each of the two requests. */
    static final Duration TIMEOUT = Duration.ofSeconds(1);

    private LoadHostZone() {
    }

    /** The metadata endpoint in use (see the class comment), or empty when the lookup is disabled. */
    static Optional<URI> endpoint() {
        String disabled = firstNonBlank(System.getProperty("aws.disableEc2Metadata"),
                System.getenv("AWS_EC2_METADATA_DISABLED"));
        if ("true".equalsIgnoreCase(disabled)) {
            return Optional.empty();
        }
        String configured = firstNonBlank(System.getProperty("aws.ec2MetadataServiceEndpoint"),
                System.getenv("AWS_EC2_METADATA_SERVICE_ENDPOINT"));
        String base = configured != null ? configured : "http://169.254.169.254";
        return Optional.of(URI.create(base.endsWith("/") ? base.substring(0, base.length() - 1) : base));
    }

    /** This host's availability zone, or empty when no metadata service answered (not on EC2, or disabled). */
    public static Optional<String> find() {
        Optional<URI> base = endpoint();
        if (base.isEmpty()) {
            return Optional.empty();
        }
        HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
        try {
            HttpResponse<String> token = http.send(HttpRequest.newBuilder(URI.create(base.get() + "/latest/api/token"))
                    .timeout(TIMEOUT).header("X-aws-ec2-metadata-token-ttl-seconds", "60")
                    .PUT(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
            if (token.statusCode() != 200 || token.body().isBlank()) {
                return Optional.empty();
            }
            HttpResponse<String> az = http.send(HttpRequest.newBuilder(
                            URI.create(base.get() + "/latest/meta-data/placement/availability-zone"))
                    .timeout(TIMEOUT).header("X-aws-ec2-metadata-token", token.body().strip()).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            String zone = az.body() == null ? "" : az.body().strip();
            return az.statusCode() == 200 && zone.matches("[a-z0-9-]+") ? Optional.of(zone) : Optional.empty();
        } catch (IOException | IllegalArgumentException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    private static String firstNonBlank(String a, String b) {
        return a != null && !a.isBlank() ? a.strip() : b != null && !b.isBlank() ? b.strip() : null;
    }
}
