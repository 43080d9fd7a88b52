package io.rigscope.rig.cli;

import io.rigscope.generator.GeneratorOptions;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * How the generator's HTTP client behaves, for {@code generate} and {@code bench generator}: pre-opened
 * connections, busy polling, polling ({@code --poll-us}) and the idle timeout. Checked and applied in one place.
 */
public final class ClientTuning {

    @Option(names = "--preconnect-ms", defaultValue = "100", description = "Open loop: keep-alive connections opened before the schedule, this many ms of requests per lane (default ${DEFAULT-VALUE}).")
    long preconnectMs;

    @Option(names = "--busy-poll", description = "The client loops poll without blocking while the run lasts (a whole core each; the least send lag).")
    boolean busyPoll;

    @Option(names = "--poll-us", defaultValue = "0", description = {"Open loop: when the next request is due within this many µs, the loop sleeps "
        + "until then and takes the replies that came meanwhile in one look, instead of being woken by each (less CPU "
        + "for the generator and the target; a reply's t2 is then up to one wake gap late). 0-1000; default ${DEFAULT-VALUE}: off."})
    long pollUs;

    @Option(names = "--idle-timeout", defaultValue = "0s", description = {"Close a keep-alive connection idle this long (default ${DEFAULT-VALUE}: never). Set it below "
        + "the server's own keep-alive timeout (Node: 5s) when requests fail as resets after idle spells."})
    Duration idleTimeout;

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
        return options.withBusyPoll(busyPoll)
                .withPreconnect(Duration.ofMillis(preconnectMs))
                .withPollNanos(pollUs * 1000)
                .withIdleTimeout(idleTimeout);
    }
}
