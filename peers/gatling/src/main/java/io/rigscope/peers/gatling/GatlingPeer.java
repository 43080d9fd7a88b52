package io.rigscope.peers.gatling;

import io.gatling.app.Gatling$;
import io.gatling.charts.stats.GeneralStats;
import io.gatling.charts.stats.LogFileData;
import io.gatling.charts.stats.LogFileReader$;
import io.gatling.commons.stats.KO$;
import io.gatling.core.config.GatlingConfiguration$;
import io.rigscope.peers.PeerDriver;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.stream.Stream;
import scala.Option;

/**
 * Gatling in {@code bench generator --vs-peers}: each step one run of {@link OneGetSimulation} in this JVM
 * ({@code Gatling.fromArgs}, no reports: {@code -nr}), its figures then read from the run's simulation.log.
 */
public final class GatlingPeer extends PeerDriver {

    private final Path results;

    GatlingPeer(Path results) {
        this.results = results;
    }

    public static void main(String[] args) throws IOException {
        // no usage report to Gatling Corp, no warm-up request to https://gatling.io (the machine may be offline)
        System.setProperty("gatling.data.enableAnalytics", "false");
        System.setProperty("gatling.http.warmUpUrl", "");
        serve(new GatlingPeer(Files.createTempDirectory("rigscope-peer-gatling")), args);
    }

    @Override
    protected String tool() {
        return "gatling";
    }

    @Override
    protected String version() {
        return jarVersion(io.gatling.core.config.GatlingConfiguration.class);
    }

    @Override
    protected Result step(String url, double rate, Duration length, Runnable ended) throws Exception {
        System.setProperty(OneGetSimulation.URL, url);
        System.setProperty(OneGetSimulation.RATE, Double.toString(rate));
        System.setProperty(OneGetSimulation.MILLIS, Long.toString(length.toMillis()));
        int code = Gatling$.MODULE$.fromArgs(new String[] {"-s", OneGetSimulation.class.getName(),
            "-rf", results.toString(), "-nr"});
        ended.run();
        if (code != 0) {
            throw new IllegalStateException("Gatling exited " + code);
        }
        Path run;
        try (Stream<Path> dirs = Files.list(results)) {
            run = dirs.filter(Files::isDirectory).max(Comparator.comparing(p -> p.toFile().lastModified()))
                    .orElseThrow(() -> new IllegalStateException("Gatling wrote no run directory in " + results));
        }
        return stats(run);
    }

    /**
     * Gatling's own figures of the run, read from its simulation.log with its own reader (gatling-charts'
     * {@code LogFileReader}, as its reports do): requests, KO, and the response-time percentiles (ms, as Gatling
     * records them). The log is deleted afterwards.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private Result stats(Path run) throws IOException {
        try {
            LogFileData data = LogFileReader$.MODULE$.apply(run.getFileName().toString(), results,
                    GatlingConfiguration$.MODULE$.load()).read();
            Option none = Option.empty();
            GeneralStats all = data.requestGeneralStats(none, none, none);
            GeneralStats ko = data.requestGeneralStats(none, none, Option.apply(KO$.MODULE$));
            Result r = new Result()
                    .put("sent", all.count())
                    .put("errors", ko.count())
                    .put("capped", false);
            if (all.count() > 0) {
                r.put("p50_ms", ((Number) all.percentile().apply(50.0)).doubleValue())
                        .put("p99_ms", ((Number) all.percentile().apply(99.0)).doubleValue())
                        .put("max_ms", (double) all.max());
            }
            return r.put("latency", "response_time_ms_resolution");
        } finally {
            try (Stream<Path> files = Files.walk(run)) {
                files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }
}
