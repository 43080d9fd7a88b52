package io.rigscope.analyzer.threshold;

/** A threshold that is not valid k6 syntax, or names a metric or aggregation rigscope cannot judge. */
public final class ThresholdSyntaxException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    ThresholdSyntaxException(String message) {
        super(message);
    }
}
