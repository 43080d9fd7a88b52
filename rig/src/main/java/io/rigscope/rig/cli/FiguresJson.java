package io.rigscope.rig.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * A bench's figures as one JSON object, keys in the order they are put, written by Jackson. A decimal figure keeps
 * the digits it is given ({@link #fixed}: {@code 12.5} with 3 decimals is {@code 12.500}, as {@code %.3f} prints
 * it); a figure that is not a number (NaN, infinite) is {@code null}.
 *
 * <p>Not thread-safe: one command fills one and writes it.
 *
 * <pre>{@code
 * System.out.println(new FiguresJson().put("samples", 5000).fixed("ratio", 0.9512, 3).toJson());
 * // {"samples":5000,"ratio":0.951}
 * }</pre>
 */
final class FiguresJson {

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN);

    private final Map<String, Object> fields = new LinkedHashMap<>();

    /** An integer figure. */
    FiguresJson put(String key, long value) {
        fields.put(Objects.requireNonNull(key, "key"), value);
        return this;
    }

    /** A yes/no figure. */
    FiguresJson put(String key, boolean value) {
        fields.put(Objects.requireNonNull(key, "key"), value);
        return this;
    }

    /** A text figure; null is written as the text {@code "null"}, as {@code %s} wrote it. */
    FiguresJson put(String key, String value) {
        fields.put(Objects.requireNonNull(key, "key"), String.valueOf(value));
        return this;
    }

    /** A decimal figure with {@code decimals} digits after the point, rounded as {@code %.Nf} rounds. */
    FiguresJson fixed(String key, double value, int decimals) {
        fields.put(Objects.requireNonNull(key, "key"), decimal(value, decimals));
        return this;
    }

    /** An array of objects. */
    FiguresJson put(String key, List<FiguresJson> objects) {
        List<Map<String, Object>> list = new ArrayList<>();
        for (FiguresJson o : objects) {
            list.add(o.fields);
        }
        fields.put(Objects.requireNonNull(key, "key"), list);
        return this;
    }

    /** The object on one line. */
    String toJson() {
        try {
            return MAPPER.writeValueAsString(fields);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write the figures as JSON", e);
        }
    }

    private static BigDecimal decimal(double value, int decimals) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            return null;
        }
        // the digits %.Nf prints (its rounding, not BigDecimal's of the binary value), as a JSON number
        return new BigDecimal(String.format(Locale.ROOT, "%." + decimals + "f", value));
    }
}
