package io.rigscope.analyzer.decision;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;
import java.util.Objects;

/**
 * What to change so an episode's cause goes away, computed from the episode's own evidence (docs/attribution.md,
 * Levers): a Postgres setting and its value, or, where the lever is not a setting ({@code setting} null), an
 * {@code action}; {@code why} shows the inputs and the arithmetic. When an input was not measured the lever has
 * neither a setting nor an action and {@code why} says what was missing: a lever is never invented.
 *
 * @param setting the Postgres setting, or null when the lever is not a setting (or was not computed)
 * @param value the setting's value in Postgres's own syntax ({@code 16GB}, {@code 0.05}), or the action's figure
 *     ({@code 2 generators}), or null
 * @param action what to do when the lever is not a setting, or null
 * @param why the inputs, each with its stream, and the formula with the numbers
 * @param also further settings the same evidence sizes (a cost limit beside the scale factor), possibly empty
 */
@WireView
@JsonPropertyOrder({"setting", "value", "action", "why", "also"})
public record Lever(@JsonProperty("setting") @JsonInclude(JsonInclude.Include.ALWAYS) String setting,
                    @JsonProperty("value") @JsonInclude(JsonInclude.Include.ALWAYS) String value,
                    @JsonProperty("action") @JsonInclude(JsonInclude.Include.NON_NULL) String action,
                    @JsonProperty("why") String why,
                    @JsonProperty("also") @JsonInclude(JsonInclude.Include.NON_EMPTY) List<Also> also) {

    public Lever {
        Objects.requireNonNull(why, "why");
        also = also == null ? List.of() : List.copyOf(also);
        if (setting != null && value == null) {
            throw new IllegalArgumentException("a lever's setting " + setting + " needs a value");
        }
    }

    /** A setting and its value. */
    public static Lever setting(String setting, String value, String why, List<Also> also) {
        return new Lever(Objects.requireNonNull(setting, "setting"), value, null, why, also);
    }

    /** An action that is not a setting, with its figure (or null). */
    public static Lever action(String action, String value, String why) {
        return new Lever(null, value, Objects.requireNonNull(action, "action"), why, List.of());
    }

    /** No lever: an input was not measured; {@code why} says which. */
    public static Lever notMeasured(String why) {
        return new Lever(null, null, null, why, List.of());
    }

    /** True when the lever names a setting or an action. */
    public boolean computed() {
        return setting != null || action != null;
    }

    /** {@code min_wal_size=16GB}, the action, or {@code not computed}, for one-line displays. */
    public String headline() {
        if (setting != null) {
            return setting + "=" + value + also.stream().map(a -> ", " + a.setting() + "=" + a.value())
                    .reduce("", String::concat);
        }
        return action != null ? action : "not computed";
    }

    /**
     * A further setting sized by the same evidence.
     *
     * @param setting the Postgres setting
     * @param value its value in Postgres's syntax
     */
    @WireView
    @JsonPropertyOrder({"setting", "value"})
    public record Also(@JsonProperty("setting") String setting, @JsonProperty("value") String value) {
        public Also {
            Objects.requireNonNull(setting, "setting");
            Objects.requireNonNull(value, "value");
        }
    }
}
