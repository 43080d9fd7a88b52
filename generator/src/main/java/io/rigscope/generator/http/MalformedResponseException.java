package io.rigscope.generator.http;

/**
 * An HTTP/1.1 response that {@link ResponseParser} cannot frame: the message names what is wrong and where,
 * e.g. {@code bad status line: 'HTTP/1.1 2x0 OK'} or {@code bad chunk size 'zz' in chunk 3}. The connection it
 * came from is out of sync and must be closed.
 */
public final class MalformedResponseException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** @param message what is wrong and where; never null */
    public MalformedResponseException(String message) {
        super(message);
    }
}
