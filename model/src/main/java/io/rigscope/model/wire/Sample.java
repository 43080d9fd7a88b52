package io.rigscope.model.wire;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/**
 * One finished request. Timestamps are epoch microseconds UTC from the generator's clock.
 *
 * <p>{@code service = t2 - t1} is k6's {@code http_req_duration}; {@code response = t2 - t0} also counts the
 * wait behind a late schedule (coordinated omission). Seconds are cut by {@code t2}.
 *
 * @param scenario scenario name; samples of different scenarios are never pooled
 * @param t0 intended start, epoch µs
 * @param t1 actual send, epoch µs ({@code >= t0} in open loop)
 * @param t2 end of the response, or of the error/timeout, epoch µs ({@code >= t1})
 * @param status HTTP status, 0 when no response arrived
 * @param err error kind, {@link ErrorKind#NONE} for a 2xx/3xx
 * @param batch events in the request body
 * @param qty sum of the events' quantities sent
 * @param bytes request body size in bytes
 * @param serverTiming what the service said of its time in a {@code Server-Timing} header ({@link ServerTiming#NONE}
 *                     when it said nothing; then left out of the JSON, so older samples decode unchanged)
 */
public record Sample(String scenario, long t0, long t1, long t2, int status, ErrorKind err, int batch, long qty,
                     long bytes,
                     @JsonProperty("server_timing_us") @JsonInclude(JsonInclude.Include.NON_EMPTY)
                     ServerTiming serverTiming) {

    /** A sample without server timing. */
    public Sample(String scenario, long t0, long t1, long t2, int status, ErrorKind err, int batch, long qty,
                  long bytes) {
        this(scenario, t0, t1, t2, status, err, batch, qty, bytes, ServerTiming.NONE);
    }

    public Sample {
        Checks.nonBlank(scenario, "scenario");
        Objects.requireNonNull(err, "err is missing");
        if (t0 <= 0 || t1 < t0 || t2 < t1) {
            throw new IllegalArgumentException(
                    "sample times must satisfy 0 < t0 <= t1 <= t2, got t0=" + t0 + " t1=" + t1 + " t2=" + t2);
        }
        Checks.nonNegative(batch, "batch");
        Checks.nonNegative(bytes, "bytes");
        serverTiming = serverTiming == null ? ServerTiming.NONE : serverTiming;
    }

    /** This sample with the service's own account of its time. */
    public Sample withServerTiming(ServerTiming timing) {
        return new Sample(scenario, t0, t1, t2, status, err, batch, qty, bytes, timing);
    }

    /** {@code t2 - t1}, microseconds. */
    public long serviceUs() {
        return t2 - t1;
    }

    /** {@code t2 - t0}, microseconds. */
    public long responseUs() {
        return t2 - t0;
    }

    /** True when the request failed: any error kind other than {@link ErrorKind#NONE}. */
    public boolean failed() {
        return err != ErrorKind.NONE;
    }
}
