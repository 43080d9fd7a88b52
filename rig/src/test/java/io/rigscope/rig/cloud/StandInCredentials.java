package io.rigscope.rig.cloud;

/**
 * Placeholder credentials for the stand-in, given the way a user gives them (the SDK's system properties), and their
 * absence (no properties, no profile file, no instance metadata).
 */
final class StandInCredentials {

    private static final String[] PROPERTIES = {"aws.accessKeyId", "aws.secretAccessKey", "aws.sharedCredentialsFile",
        "aws.configFile", "aws.disableEc2Metadata"};

    private StandInCredentials() {
    }

    static void set() {
        System.setProperty("aws.accessKeyId", "AKIASTANDIN000000000");
        System.setProperty("aws.secretAccessKey", "stand-in-secret-not-a-real-one");
    }

    static void none() {
        System.clearProperty("aws.accessKeyId");
        System.clearProperty("aws.secretAccessKey");
        System.setProperty("aws.sharedCredentialsFile", "/nonexistent/rigscope-test/credentials");
        System.setProperty("aws.configFile", "/nonexistent/rigscope-test/config");
        System.setProperty("aws.disableEc2Metadata", "true");
    }

    static void clear() {
        for (String p : PROPERTIES) {
            System.clearProperty(p);
        }
    }
}
