package io.rigscope.generator.plan;

/**
 * The two defaults that follow a plan's rate, for whoever builds a run without being told them ({@code generate}
 * without {@code --max-in-flight} or {@code --io-threads}, a plan file without {@code max_in_flight}, the
 * {@code --vs-peers} defaults row): an explicit value always wins. docs/generator.md "Defaults that follow the rate".
 *
 * <ul>
 *   <li><b>In-flight cap</b>: the requests the scenario starts in {@value #CAP_COVERS_MS} ms, at least
 *       {@value #MIN_MAX_IN_FLIGHT}: {@code max(256, ceil(rate × 0.025 s))}. A cap fills only when replies stop
 *       coming for {@code cap / rate}, so a fixed 256 was 6.4 ms at 40,000 req/s and one host stall of that length
 *       dropped; 25 ms covers the longest stalls the bench saw beside other jobs (send lag max 9-19 ms) and stays far
 *       below the connect storm a large cap makes under overload (20,000 in flight at 60,000 req/s: lag p99 1.8 s).
 *       Example: 256 up to 10,240 req/s, 500 at 20,000, 1,000 at 40,000, 1,500 at 60,000.</li>
 *   <li><b>Client event loops</b>: one per 50,000 req/s of the plan's peak rate (the
 *       sum of its scenarios' rates, this generator's share of them), at least 1, at most the cores; closed loop,
 *       the cores. One loop held 40,000 req/s at 12.8 µs a request on a 2-core VM, and a second loop there only
 *       competes with the target and the JIT for the cores (docs/generator.md).</li>
 * </ul>
 *
 * <p>Stateless; any thread.
 */
public final class DefaultSizing {

    /** The in-flight cap covers this many ms of the scenario's rate. */
    public static final int CAP_COVERS_MS = 25;
    /** The least in-flight cap (the fixed default before the rule). */
    public static final int MIN_MAX_IN_FLIGHT = 256;
    /** One client event loop per this many requests/s of the plan's peak rate. */
    public static final double REQUESTS_PER_CLIENT_LOOP = 50_000;

    private DefaultSizing() {
    }

    /** The default in-flight cap of a scenario offered at {@code requestsPerSec} (this generator's part of it). */
    public static int maxInFlight(double requestsPerSec) {
        if (!(requestsPerSec >= 0) || Double.isInfinite(requestsPerSec)) {
            throw new IllegalArgumentException("requestsPerSec must be >= 0 and finite, was " + requestsPerSec);
        }
        double covered = Math.ceil(requestsPerSec * CAP_COVERS_MS / 1000.0);
        return (int) Math.max(MIN_MAX_IN_FLIGHT, Math.min(Integer.MAX_VALUE, covered));
    }

    /** The default number of client event loops for an open loop peaking at {@code peakRequestsPerSec}. */
    public static int clientLoops(double peakRequestsPerSec, int cores) {
        if (cores < 1) {
            throw new IllegalArgumentException("cores must be >= 1, was " + cores);
        }
        if (!(peakRequestsPerSec >= 0) || Double.isInfinite(peakRequestsPerSec)) {
            throw new IllegalArgumentException("peakRequestsPerSec must be >= 0 and finite, was " + peakRequestsPerSec);
        }
        int byRate = (int) Math.ceil(peakRequestsPerSec / REQUESTS_PER_CLIENT_LOOP);
        return Math.max(1, Math.min(cores, byRate));
    }

    /**
     * The default number of client event loops for {@code plan}: open loop, {@link #clientLoops(double, int)} of the
     * sum of its scenarios' rates divided among its share's generators; closed loop, {@code cores}.
     */
    public static int clientLoops(LoadPlan plan, int cores) {
        if (plan.mode() == LoopMode.CLOSED) {
            return Math.max(1, cores);
        }
        double peak = plan.scenarios().stream().mapToDouble(Scenario::requestsPerSec).sum() / plan.share().n();
        return clientLoops(peak, cores);
    }
}
