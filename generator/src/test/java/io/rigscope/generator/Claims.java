package io.rigscope.generator;

import io.rigscope.model.wire.Sample;
import java.util.Collection;

/**
 * What a run's published samples claim, derived the way the analyzer derives it: the events (Σ {@code batch}) and
 * Σ {@code qty} of the requests answered 2xx (200-299). Tests compare it with what their server received, so a
 * 2xx request whose events did not reach the server, or reached it twice, or a sample lost on the way, shows.
 *
 * @param events events in requests answered 2xx
 * @param quantity Σ quantity of those events
 */
record Claims(long events, long quantity) {

    /** The claims of these samples (pass one scenario's samples for that scenario's claims). */
    static Claims of(Collection<Sample> samples) {
        long events = 0;
        long quantity = 0;
        for (Sample s : samples) {
            if (s.status() >= 200 && s.status() < 300) {
                events += s.batch();
                quantity += s.qty();
            }
        }
        return new Claims(events, quantity);
    }
}
