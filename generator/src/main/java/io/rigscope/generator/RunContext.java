package io.rigscope.generator;

import io.rigscope.model.wire.Sample;

/** What a {@link ScenarioRun} needs from the run that owns it. */
interface RunContext {

    MicroClock clock();

    /** Adds a request to the in-flight registry (before it is counted or sent). */
    void register(Exchange x);

    /** Removes a request from the in-flight registry (after its sample was collected). */
    void unregister(Exchange x);

    /** Hands a finished request's sample to the collector; {@code error} is the failure, if any, for logging. */
    void collect(Sample sample, Throwable error);

    /** True once the run was asked to stop early. */
    boolean stopping();
}
