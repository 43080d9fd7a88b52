package io.rigscope.rig.ownservice;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A GraphQL response: {@code data} (absent when the request failed before anything ran: a document that does not
 * parse or validate) and {@code errors} (absent when there are none), as the GraphQL specification's "Response"
 * section shapes it.
 *
 * @param data the root fields in document order, a field that failed as a null value; null for no {@code data}
 * @param errors what failed, never null
 */
record GraphqlAnswer(Map<String, Object> data, List<Error> errors) {

    GraphqlAnswer {
        data = data == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(data));
        errors = List.copyOf(errors);
    }

    /** An answer with no {@code data}: the request was refused before it ran. */
    static GraphqlAnswer refused(Error error) {
        return new GraphqlAnswer(null, List.of(error));
    }

    /** The JSON object, errors first (the specification suggests it, so that a reader sees them). */
    Map<String, Object> toJson() {
        Map<String, Object> out = new LinkedHashMap<>();
        if (!errors.isEmpty()) {
            List<Map<String, Object>> list = new ArrayList<>(errors.size());
            errors.forEach(e -> list.add(e.toJson()));
            out.put("errors", list);
        }
        if (data != null) {
            out.put("data", data);
        }
        return out;
    }

    /**
     * One entry of {@code errors}.
     *
     * @param message for people
     * @param path the response key of the field that failed, or empty when it is not known or not one field
     * @param line where in the document (1-based), or 0 for no location
     * @param column where in the line (1-based), or 0
     * @param extensions machine-readable detail (the SQLSTATE and constraint of a database error), maybe empty
     */
    record Error(String message, List<Object> path, int line, int column, Map<String, Object> extensions) {
        Error {
            Objects.requireNonNull(message, "message");
            path = List.copyOf(path);
            extensions = Collections.unmodifiableMap(new LinkedHashMap<>(extensions));
        }

        static Error of(String message) {
            return new Error(message, List.of(), 0, 0, Map.of());
        }

        static Error at(String message, int line, int column) {
            return new Error(message, List.of(), line, column, Map.of());
        }

        Map<String, Object> toJson() {
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("message", message);
            if (line > 0) {
                out.put("locations", List.of(Map.of("line", line, "column", column)));
            }
            if (!path.isEmpty()) {
                out.put("path", path);
            }
            if (!extensions.isEmpty()) {
                out.put("extensions", extensions);
            }
            return out;
        }
    }
}
