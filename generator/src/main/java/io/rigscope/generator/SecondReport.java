package io.rigscope.generator;

/**
 * One scenario's second as the console shows it (the same figures as its {@code rig.ledger} record, plus
 * latency). {@code offered}, {@code sent} and {@code dropped} count requests by intended start;
 * {@code completed}, {@code errors} and the percentiles count requests by end, as every second is cut.
 *
 * @param epochSec the second
 * @param scenario scenario name
 * @param offered requests due in this second (k6: iterations scheduled)
 * @param sent of those, sent
 * @param dropped of those, dropped at the in-flight cap
 * @param completed requests that ended in this second
 * @param errors of those, failed
 * @param inFlight requests in flight when the second was closed
 * @param p50Ms median {@code t2 - t1} of the completed requests, NaN when none
 * @param p99Ms p99 {@code t2 - t1}, NaN when none
 * @param responseP99Ms p99 {@code t2 - t0}, NaN when none
 */
public record SecondReport(long epochSec, String scenario, long offered, long sent, long dropped, long completed,
                           long errors, int inFlight, double p50Ms, double p99Ms, double responseP99Ms) {

    private static final java.time.format.DateTimeFormatter HH_MM_SS =
            java.time.format.DateTimeFormatter.ofPattern("HH:mm:ss");

    /** One console line (UTC time of day, scenario, counts, latency of the second). */
    public String line() {
        return String.format(java.util.Locale.ROOT,
                "%s %-10s offered %6d  sent %6d  done %6d  dropped %5d  in-flight %5d  p50 %8.2f ms  p99 %8.2f ms  errors %d",
                HH_MM_SS.format(java.time.LocalTime.ofSecondOfDay(Math.floorMod(epochSec, 86_400L))), scenario, offered, sent, completed,
                dropped, inFlight, p50Ms, p99Ms, errors);
    }
}
