package io.rigscope.generator;

/** Receives one report per scenario and second, as each second becomes final. Called on the sample batcher's thread ({@code rig-gen-batch}): return quickly. */
@FunctionalInterface
public interface ProgressListener {

    void onSecond(SecondReport report);

    /** A listener that ignores everything. */
    static ProgressListener none() {
        return report -> { };
    }
}
