package io.rigscope.generator;

import io.rigscope.model.wire.Sample;

/** What a {@link ScenarioRun} needs from the run that owns it. */
interface RunContext {

    MicroClock clock();

    /** Hands a finished request's sample to the collector; {@code error} is the failure, if any, for logging. */
    void collect(Sample sample, Throwable error);

    /** True once the run was asked to stop early. */
    boolean stopping();
}
