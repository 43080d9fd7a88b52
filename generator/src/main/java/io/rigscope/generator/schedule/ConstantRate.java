package io.rigscope.generator.schedule;

import java.time.Duration;

/** {@link ArrivalSchedule#constantRate}. */
final class ConstantRate implements ArrivalSchedule {

    private final double requestsPerSec;

    ConstantRate(double requestsPerSec) {
        if (!(requestsPerSec > 0) || Double.isInfinite(requestsPerSec)) {
            throw new IllegalArgumentException("rate must be > 0 requests/s, was " + requestsPerSec);
        }
        this.requestsPerSec = requestsPerSec;
    }

    @Override
    public long offsetNanos(long index) {
        return Math.round(index * 1e9 / requestsPerSec);
    }

    @Override
    public long countWithin(Duration duration) {
        long durationNanos = duration.toNanos();
        long n = (long) Math.ceil(durationNanos * requestsPerSec / 1e9);
        while (n > 0 && offsetNanos(n - 1) >= durationNanos) {
            n--;
        }
        while (offsetNanos(n) < durationNanos) {
            n++;
        }
        return n;
    }

    @Override
    public String toString() {
        return "constantRate(" + requestsPerSec + "/s)";
    }
}
