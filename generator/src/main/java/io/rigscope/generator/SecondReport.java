package io.rigscope.generator;

import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Objects;

/**
 * One scenario's second as the generator's schedule knows it: the same counts as its {@code rig.ledger} record,
 * plus the requests in flight when the second closed. {@code offered}, {@code sent} and {@code dropped} count
 * requests by intended start; {@code completed} counts requests by end. No latency and no failures: those are
 * the analyzer's ({@code rigscope analyze --series ID}), from the samples.
 *
 * @param epochSec the second
 * @param scenario scenario name
 * @param offered requests due in this second (k6: iterations scheduled)
 * @param sent of those, sent
 * @param dropped of those, dropped at the in-flight cap
 * @param completed requests that ended in this second (any outcome)
 * @param inFlight requests in flight when the second was closed
 */
public record SecondReport(long epochSec, String scenario, long offered, long sent, long dropped, long completed,
                           int inFlight) {

    private static final DateTimeFormatter HH_MM_SS = DateTimeFormatter.ofPattern("HH:mm:ss");

    public SecondReport {
        Objects.requireNonNull(scenario, "scenario");
    }

    /** One console line: UTC time of day, scenario, the second's counts. */
    public String line() {
        return String.format(Locale.ROOT, "%s %-10s offered %6d  sent %6d  done %6d  dropped %5d  in-flight %5d",
                HH_MM_SS.format(LocalTime.ofSecondOfDay(Math.floorMod(epochSec, 86_400L))), scenario, offered, sent,
                completed, dropped, inFlight);
    }
}
