package io.rigscope.collectors;

import io.rigscope.model.wire.WireRecord;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import reactor.core.publisher.Flux;

/**
 * Named collector streams, in a stable order: each a cold, endless Flux of records and gap markers that
 * starts collecting when subscribed and stops when cancelled. The caller publishes them (e.g. through
 * {@code WirePublisher}, off any event loop).
 */
public record CollectorSet(Map<String, Flux<WireRecord>> streams) {

    public CollectorSet {
        Objects.requireNonNull(streams, "streams");
        streams = Collections.unmodifiableMap(new LinkedHashMap<>(streams));
    }

    /** Collector names, e.g. {@code vmstat, os, waits, db, pglog, canary}. */
    public List<String> names() {
        return List.copyOf(streams.keySet());
    }

    /** The stream of one collector. */
    public Flux<WireRecord> stream(String name) {
        Flux<WireRecord> f = streams.get(name);
        if (f == null) {
            throw new IllegalArgumentException("no collector '" + name + "' in this set; have " + names());
        }
        return f;
    }

    /** Every stream merged: one Flux for the whole set. */
    public Flux<WireRecord> merged() {
        return Flux.merge(streams.values());
    }

    /** A set holding only the named collectors. */
    public CollectorSet only(List<String> names) {
        Map<String, Flux<WireRecord>> picked = new LinkedHashMap<>();
        for (String n : names) {
            picked.put(n, stream(n));
        }
        return new CollectorSet(picked);
    }
}
