package io.rigscope.rig.calibrate;

/**
 * A provocation in progress. {@link #close()} ends it and waits for its threads; {@link #note()} says what it
 * actually did (times, amounts), measured by the provocation itself.
 */
interface Provocation extends AutoCloseable {

    /** Ends the provocation and waits for it. Idempotent. */
    @Override
    void close();

    /** What was done, e.g. {@code lock held 12:00:19.800-12:00:20.201 UTC}; empty before it happened. */
    String note();

    /** A provocation with nothing to start or end (the case's load or cluster is the provocation): only a note. */
    static Provocation passive(String note) {
        return new Provocation() {
            @Override
            public void close() {
            }

            @Override
            public String note() {
                return note;
            }
        };
    }
}
