package io.rigscope.analyzer.episode;

/**
 * How sure an attribution is: {@link #ATTRIBUTED} (the defining evidence is present), {@link #MOST_LIKELY}
 * (the fingerprint fits but a defining stream is missing) or {@link #UNATTRIBUTED}.
 */
public enum Confidence {
    ATTRIBUTED("attributed"), MOST_LIKELY("most-likely"), UNATTRIBUTED("unattributed");

    private final String code;

    Confidence(String code) {
        this.code = code;
    }

    /** As reports and verdicts write it. */
    public String code() {
        return code;
    }
}
