package io.rigscope.generator.body;

/**
 * One rendered request body.
 *
 * @param bytes UTF-8 body, empty for a request without a body
 * @param batch events in the body
 * @param quantity the events' Σ quantity
 */
public record RequestBody(byte[] bytes, int batch, long quantity) {

    /** No body (a GET). */
    public static final RequestBody EMPTY = new RequestBody(new byte[0], 0, 0);
}
