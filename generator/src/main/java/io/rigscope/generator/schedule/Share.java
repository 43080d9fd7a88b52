package io.rigscope.generator.schedule;

import java.time.Duration;
import java.util.Locale;

/**
 * One generator's part of a schedule that several generators offer together: share {@code k} of {@code n} takes the
 * requests {@code k-1, k-1+n, k-1+2n, ...} of the whole schedule, at their whole-schedule offsets. Started at the
 * same instant, the {@code n} shares offer exactly the whole schedule between them, interleaved (request by request,
 * not second by second); each runs at {@code 1/n} of the rate.
 *
 * @param k this generator's share, 1-based
 * @param n how many generators share the schedule
 */
public record Share(int k, int n) {

    /** The whole schedule: one generator. */
    public static final Share WHOLE = new Share(1, 1);

    public Share {
        if (n < 1 || k < 1 || k > n) {
            throw new IllegalArgumentException("share " + k + "/" + n + " is not one of 1/N to N/N with N >= 1");
        }
    }

    /**
     * Parses {@code K/N}, e.g. {@code 1/2}.
     *
     * @throws IllegalArgumentException naming the text and what is wrong
     */
    public static Share parse(String text) {
        String[] parts = text == null ? new String[0] : text.strip().split("/", -1);
        if (parts.length != 2) {
            throw new IllegalArgumentException("share '" + text + "' is not K/N (e.g. 1/2)");
        }
        try {
            return new Share(Integer.parseInt(parts[0].strip()), Integer.parseInt(parts[1].strip()));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("share '" + text + "' is not K/N with whole numbers (e.g. 1/2)");
        }
    }

    /** This share of {@code whole}. */
    public ArrivalSchedule of(ArrivalSchedule whole) {
        if (n == 1) {
            return whole;
        }
        return new ArrivalSchedule() {
            @Override
            public long offsetNanos(long index) {
                return whole.offsetNanos((k - 1) + index * n);
            }

            @Override
            public long countWithin(Duration duration) {
                long all = whole.countWithin(duration);
                return all <= k - 1 ? 0 : (all - (k - 1) + n - 1) / n;
            }

            @Override
            public String toString() {
                return "share " + Share.this + " of " + whole;
            }
        };
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%d/%d", k, n);
    }
}
