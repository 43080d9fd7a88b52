package io.rigscope.sut;

import java.util.Map;
import java.util.Objects;

/**
 * An answer a handler gives: the HTTP status and a body Jackson writes as JSON.
 *
 * @param status HTTP status
 * @param body what to write as JSON
 * @param eventsWritten events this answer claims were written (the {@code written} of a 201; else 0)
 */
public record Reply(int status, Object body, long eventsWritten) {

    public Reply {
        Objects.requireNonNull(body, "body");
    }

    public static Reply ok(Object body) {
        return new Reply(200, body, 0);
    }

    /** 4xx/5xx with {@code {"error": message}}. */
    public static Reply error(int status, String message) {
        return new Reply(status, Map.of("error", message), 0);
    }

    /** 401 for a missing, malformed, unknown or revoked key. */
    public static Reply unauthorized() {
        return error(401, "missing or unknown API key; send Authorization: Bearer <key>");
    }
}
