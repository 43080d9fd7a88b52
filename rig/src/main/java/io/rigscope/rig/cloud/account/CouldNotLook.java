package io.rigscope.rig.cloud.account;

/**
 * An AWS call that could not be made or was refused: no credentials, access denied, or an endpoint that does not
 * answer. Its message is the one line {@code cloud check} prints (exit 2).
 */
public final class CouldNotLook extends RuntimeException {
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
