package io.rigscope.collectors.aws;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.rigscope.awsstandin.AwsStandIn;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;

/** The collectors' side of an {@link AwsStandIn}: test credentials, the settings pointing at it, canned answers. */
final class FakeAws {

    static final String ACCESS_KEY = "AKIDRIGSCOPETEST0001";
    static final String SECRET_KEY = "rigscope-test-secret-never-in-a-record";
    private static final ObjectMapper JSON = new ObjectMapper();

    private FakeAws() {
    }

    static AwsSettings settings(AwsStandIn aws) {
        return new AwsSettings(Region.EU_WEST_1, aws.endpoint(),
                StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY)));
    }

    /** A canned answer under {@code /aws/}. */
    static String fixture(String name) {
        try (InputStream in = FakeAws.class.getResourceAsStream("/aws/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static ObjectMapper json() {
        return JSON;
    }
}
