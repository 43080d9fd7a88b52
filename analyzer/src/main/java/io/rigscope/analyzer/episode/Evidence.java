package io.rigscope.analyzer.episode;

import java.util.Objects;

/**
 * One fact an attribution used, from one stream.
 *
 * @param stream where it came from, e.g. {@code rig.samples}, {@code rig.health}, {@code rig.waits}
 * @param fact what was seen, in words with units, e.g. {@code 3 freeze-seconds, worst 812.3 ms}
 */
public record Evidence(String stream, String fact) {
    public Evidence {
        Objects.requireNonNull(stream, "stream");
        Objects.requireNonNull(fact, "fact");
    }

    /** {@code stream: fact}. */
    public String text() {
        return stream + ": " + fact;
    }
}
