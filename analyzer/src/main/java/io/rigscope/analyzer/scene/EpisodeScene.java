package io.rigscope.analyzer.scene;

import io.rigscope.analyzer.config.AttributionSettings;
import io.rigscope.analyzer.episode.Episode;
import io.rigscope.analyzer.freeze.Cadence;
import io.rigscope.analyzer.second.SecondStats;
import io.rigscope.analyzer.second.ServerTimingTrack;
import io.rigscope.analyzer.telemetry.TelemetryIndex;
import io.rigscope.analyzer.telemetry.TelemetryStream;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.OptionalLong;

/**
 * Everything a rule may look at for one episode: the episode, the primary scenario's seconds inside it and the
 * repeat's median, the generator's health by second, the series' telemetry, the repeat's freeze cadence and the
 * thresholds. Read-only for the rules.
 *
 * @param episode the episode (joined, not yet attributed)
 * @param seconds the primary scenario's closed seconds within {@code [start, end)}
 * @param repeatP50Us the repeat's median service time, µs
 * @param health per second: {worst JVM pause ms, worst loop lag ms, worst oldest in-flight ms}
 * @param telemetry what every telemetry stream delivered
 * @param cadence the repeat's freeze cadence
 * @param settings the rules' thresholds
 * @param serverTiming what the primary scenario's responses said of the service's own time (empty without it)
 * @param environment the series' ENVIRONMENT facts (Postgres settings among them), empty when none arrived
 * @param repeatStartSec the repeat's first second with requests of the primary scenario ({@link Long#MIN_VALUE}
 *     when unknown): where its load began, so a baseline before an episode never reaches into the cool-down
 */
public record EpisodeScene(Episode episode, List<SecondStats> seconds, long repeatP50Us,
                           NavigableMap<Long, double[]> health, TelemetryIndex telemetry, Cadence cadence,
                           AttributionSettings settings, ServerTimingTrack serverTiming,
                           Map<String, Object> environment, long repeatStartSec) {

    public EpisodeScene {
        seconds = List.copyOf(seconds);
        serverTiming = serverTiming == null ? new ServerTimingTrack() : serverTiming;
        environment = environment == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(environment));
    }

    /** A scene whose repeat's start is not known. */
    public EpisodeScene(Episode episode, List<SecondStats> seconds, long repeatP50Us, NavigableMap<Long, double[]> health,
                        TelemetryIndex telemetry, Cadence cadence, AttributionSettings settings,
                        ServerTimingTrack serverTiming, Map<String, Object> environment) {
        this(episode, seconds, repeatP50Us, health, telemetry, cadence, settings, serverTiming, environment,
                Long.MIN_VALUE);
    }

    /** A scene without ENVIRONMENT facts. */
    public EpisodeScene(Episode episode, List<SecondStats> seconds, long repeatP50Us, NavigableMap<Long, double[]> health,
                        TelemetryIndex telemetry, Cadence cadence, AttributionSettings settings,
                        ServerTimingTrack serverTiming) {
        this(episode, seconds, repeatP50Us, health, telemetry, cadence, settings, serverTiming, null, Long.MIN_VALUE);
    }

    /** A scene whose responses carried no Server-Timing. */
    public EpisodeScene(Episode episode, List<SecondStats> seconds, long repeatP50Us, NavigableMap<Long, double[]> health,
                        TelemetryIndex telemetry, Cadence cadence, AttributionSettings settings) {
        this(episode, seconds, repeatP50Us, health, telemetry, cadence, settings, null, null, Long.MIN_VALUE);
    }

    /** A Postgres size setting in bytes as the ENVIRONMENT facts recorded it ({@link LeverContext#settingBytes}). */
    public OptionalLong settingBytes(String name) {
        return new LeverContext(environment, 0, 0).settingBytes(name);
    }

    public long startSec() {
        return episode.startSec();
    }

    public long endSec() {
        return episode.endSec();
    }

    /** Records of a stream covering the episode (within the stream's tolerance). */
    public <T extends io.rigscope.model.wire.WireRecord> List<T> around(TelemetryStream s, Class<T> type) {
        return telemetry.around(s, startSec(), endSec(), type);
    }

    /** True when the stream has records covering the episode. */
    public boolean covered(TelemetryStream s) {
        return telemetry.covered(s, startSec(), endSec());
    }

    /** The stream's join tolerance in words, printed with its evidence. */
    public String within(TelemetryStream s) {
        return "within ±" + telemetry.toleranceSec(s) + " s";
    }

    /** The median of the episode's seconds' p50 over the repeat's p50 (1 when unknown). */
    public double p50Lift() {
        if (seconds.isEmpty() || repeatP50Us <= 0) {
            return 1;
        }
        long[] p50 = seconds.stream().mapToLong(SecondStats::p50ServiceUs).sorted().toArray();
        double median = p50.length % 2 == 1 ? p50[p50.length / 2] : (p50[p50.length / 2 - 1] + p50[p50.length / 2]) / 2.0;
        return median / repeatP50Us;
    }

    /** The share of the episode's requests that were slow (freeze_slow_ms), 0 without seconds. */
    public double slowShare() {
        long n = 0;
        long slow = 0;
        for (SecondStats s : seconds) {
            n += s.count();
            slow += s.slowCount();
        }
        return n == 0 ? 0 : (double) slow / n;
    }

    /** True when the p50 lifted ({@code attribution_p50_lift}): a global slowdown, most requests slow. */
    public boolean p50Lifted() {
        return p50Lift() >= settings.p50Lift();
    }
}
