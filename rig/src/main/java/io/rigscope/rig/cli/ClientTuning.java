package io.rigscope.rig.cli;

import io.rigscope.generator.GeneratorOptions;
import io.rigscope.rig.options.UsageException;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * How the generator's HTTP client behaves, for {@code generate} and {@code bench generator}: pre-opened
 * connections, busy polling, polling ({@code --poll-us}) and the idle timeout. Checked and applied in one place.
 */
final class ClientTuning {

    @Option(names = "--preconnect-ms", defaultValue = "100", description = "Open loop: keep-alive connections opened before the schedule, this many ms of requests per lane (default ${DEFAULT-VALUE}).")
    long preconnectMs;

    @Option(names = "--busy-poll", description = "The client loops poll without blocking while the run lasts (a whole core each; the least send lag).")
    boolean busyPoll;

    @Option(names = "--poll-us", defaultValue = "0", description = {"Open loop: when the next request is due within this many µs, the loop sleeps "
        + "until then and takes the replies that came meanwhile in one look, instead of being woken by each (less CPU "
        + "for the generator and the target; a reply's t2 is then up to one wake gap late). 0-1000; default ${DEFAULT-VALUE}: off."})
    long pollUs;

    @Option(names = "--max-send-lag-us", paramLabel = "N", description = {"Open loop, the adaptive wake policy's lag budget, µs "
        + "(1-1000; default " + GeneratorOptions.DEFAULT_MAX_SEND_LAG_NANOS / 1000 + "): the loop wakes once for the requests "
        + "due within this long of the next one and sends them together, never early, and takes replies when it wakes; "
        + "below one request per budget every request has its own wake."})
    Long maxSendLagUs;

    @Option(names = "--precise", description = {"Open loop: one wake per request, at its intended start (the policy before "
        + "the adaptive one; more CPU a request at high rates, the least send lag)."})
    boolean precise;

    @Option(names = "--idle-timeout", defaultValue = "0s", description = {"Close a keep-alive connection idle this long (default ${DEFAULT-VALUE}: never). Set it below "
        + "the server's own keep-alive timeout (Node: 5s) when requests fail as resets after idle spells."})
    Duration idleTimeout;

    /** The lag budget these flags ask for, ns: 0 with {@code --precise}. */
    long maxSendLagNanos() {
        if (precise) {
            return 0;
        }
        return maxSendLagUs != null ? maxSendLagUs * 1000 : GeneratorOptions.DEFAULT_MAX_SEND_LAG_NANOS;
    }

    /**
     * {@code options} with these settings.
     *
     * @throws UsageException naming the flag when a value is out of range
     */
    GeneratorOptions applyTo(GeneratorOptions options) {
        if (preconnectMs < 0) {
            throw new UsageException("--preconnect-ms must be >= 0, was " + preconnectMs);
        }
        if (pollUs < 0 || pollUs > 1000) {
            throw new UsageException("--poll-us must be 0-1000, was " + pollUs);
        }
        if (precise && maxSendLagUs != null) {
            throw new UsageException("--precise and --max-send-lag-us exclude each other (--precise is no lag budget)");
        }
        if (maxSendLagUs != null && (maxSendLagUs < 1 || maxSendLagUs > 1000)) {
            throw new UsageException("--max-send-lag-us must be 1-1000, was " + maxSendLagUs);
        }
        return options.withBusyPoll(busyPoll)
                .withMaxSendLagNanos(maxSendLagNanos())
                .withPreconnect(Duration.ofMillis(preconnectMs))
                .withPollNanos(pollUs * 1000)
                .withIdleTimeout(idleTimeout);
    }
}
