package io.rigscope.generator.http;

/**
 * An HTTP/1.1 response that cannot be framed (Netty's decoder rejected it): the message is the decoder's, e.g.
 * {@code For input string: "2x0"} or {@code HTTP header is larger than 65536 bytes.}. The connection it came from is
 * out of sync and is closed; the request is an {@code other} error.
 */
final class MalformedResponseException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** @param message what is wrong and where; never null */
    public MalformedResponseException(String message) {
        super(message);
    }
}
