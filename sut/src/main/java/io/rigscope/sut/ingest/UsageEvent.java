package io.rigscope.sut.ingest;

import java.time.Instant;
import java.util.Objects;

/**
 * One validated usage event from a request body.
 *
 * @param idempotencyKey unique per tenant; a repeat is not written twice
 * @param customerId the caller's customer name
 * @param meter the meter name
 * @param quantity units used, {@code >= 0}
 * @param timestamp when the usage happened
 * @param propertiesJson the {@code properties} object as compact JSON ({@code {}} when absent)
 */
public record UsageEvent(String idempotencyKey, String customerId, String meter, long quantity, Instant timestamp,
                         String propertiesJson) {
    public UsageEvent {
        Objects.requireNonNull(idempotencyKey, "idempotencyKey");
        Objects.requireNonNull(customerId, "customerId");
        Objects.requireNonNull(meter, "meter");
        Objects.requireNonNull(timestamp, "timestamp");
        Objects.requireNonNull(propertiesJson, "propertiesJson");
        if (quantity < 0) {
            throw new IllegalArgumentException("quantity must be >= 0, got " + quantity);
        }
    }
}
