package io.rigscope.analyzer.episode;

/**
 * How sure an attribution is: {@link #ATTRIBUTED} (the defining evidence is present and the controls are
 * clean), {@link #MOST_LIKELY} (the fingerprint fits but a defining or control stream is missing or ambiguous)
 * or {@link #UNATTRIBUTED}. Ordered from surest to least sure.
 */
public enum Confidence {
    ATTRIBUTED("attributed"), MOST_LIKELY("most_likely"), UNATTRIBUTED("unattributed");

    private final String code;

    Confidence(String code) {
        this.code = code;
    }

    /** As reports and verdicts write it. */
    public String code() {
        return code;
    }

    /** The less sure of this and {@code other}. */
    public Confidence atMost(Confidence other) {
        return compareTo(other) >= 0 ? this : other;
    }
}
