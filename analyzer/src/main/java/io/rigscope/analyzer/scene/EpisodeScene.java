package io.rigscope.analyzer.scene;

import io.rigscope.analyzer.config.AnalyzerSettings.AttributionSettings;
import io.rigscope.analyzer.decision.Episode;
import io.rigscope.analyzer.decision.RepeatSummary.Cadence;
import io.rigscope.analyzer.decision.SecondStats;
import io.rigscope.analyzer.second.ServerTimingTrack;
import io.rigscope.analyzer.telemetry.TelemetryIndex;
import io.rigscope.analyzer.telemetry.TelemetryIndex.TelemetryStream;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.OptionalDouble;
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

    /**
     * What a lever reads beside the episode's scene: the series' ENVIRONMENT facts (Postgres settings as
     * {@code current_setting} shows them, RAM, CPUs) and the span of the episode's repeat (rates are measured over it).
     *
     * @param environment the ENVIRONMENT marker's data, empty when none arrived
     * @param repeatStartSec the repeat's first second of load, epoch seconds
     * @param repeatEndSec the end of its last second, epoch seconds, exclusive
     */
    public record LeverContext(Map<String, Object> environment, long repeatStartSec, long repeatEndSec) {

        public LeverContext {
            environment = environment == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(environment));
        }

        /**
         * A Postgres setting as recorded ({@code 80MB}, {@code 5min}, {@code on}), when the environment has it: under
         * {@code pg_settings} as {@code rigscope run} records them, else under {@code settings} as an evidence
         * directory's manifest states them (docs/rescan.md).
         */
        public Optional<String> setting(String name) {
            for (String key : new String[] {"pg_settings", "settings"}) {
                if (environment.get(key) instanceof Map<?, ?> m && m.get(name) instanceof String v && !v.equals("n/a")) {
                    return Optional.of(v);
                }
            }
            return Optional.empty();
        }

        /** A memory or size setting in bytes ({@code 80MB} is 83,886,080), when recorded and readable. */
        public OptionalLong settingBytes(String name) {
            return setting(name).map(LeverContext::bytes).orElse(OptionalLong.empty());
        }

        /** A time setting in seconds ({@code 5min} is 300, {@code 2ms} is 0.002), when recorded and readable. */
        public OptionalDouble settingSeconds(String name) {
            return setting(name).map(LeverContext::seconds).orElse(OptionalDouble.empty());
        }

        /** A plain number setting ({@code 0.2}), when recorded and readable. */
        public OptionalDouble settingNumber(String name) {
            try {
                return setting(name).map(v -> OptionalDouble.of(Double.parseDouble(v))).orElse(OptionalDouble.empty());
            } catch (NumberFormatException e) {
                return OptionalDouble.empty();
            }
        }

        /** The host's RAM ({@code mem_total_bytes}), when recorded. */
        public OptionalLong memTotalBytes() {
            return environment.get("mem_total_bytes") instanceof Number n && n.longValue() > 0
                    ? OptionalLong.of(n.longValue()) : OptionalLong.empty();
        }

        /** The host's CPUs ({@code cpu_count}), when recorded. */
        public OptionalLong cpuCount() {
            return environment.get("cpu_count") instanceof Number n && n.longValue() > 0
                    ? OptionalLong.of(n.longValue()) : OptionalLong.empty();
        }

        /** Postgres's memory units (kB, MB, GB, TB, base 1024; a bare number is bytes). */
        public static OptionalLong bytes(String v) {
            String s = v.strip();
            long unit = 1;
            for (String[] u : new String[][] {{"kB", "1024"}, {"MB", "1048576"}, {"GB", "1073741824"},
                    {"TB", "1099511627776"}, {"B", "1"}}) {
                if (s.endsWith(u[0])) {
                    unit = Long.parseLong(u[1]);
                    s = s.substring(0, s.length() - u[0].length()).strip();
                    break;
                }
            }
            try {
                return OptionalLong.of(Math.round(Double.parseDouble(s) * unit));
            } catch (NumberFormatException e) {
                return OptionalLong.empty();
            }
        }

        /** Postgres's time units (us, ms, s, min, h, d; a bare number is seconds here). */
        public static OptionalDouble seconds(String v) {
            String s = v.strip().toLowerCase(Locale.ROOT);
            double unit = 1;
            for (Object[] u : new Object[][] {{"us", 1e-6}, {"ms", 1e-3}, {"min", 60.0}, {"s", 1.0}, {"h", 3600.0},
                    {"d", 86400.0}}) {
                if (s.endsWith((String) u[0])) {
                    unit = (Double) u[1];
                    s = s.substring(0, s.length() - ((String) u[0]).length()).strip();
                    break;
                }
            }
            try {
                return OptionalDouble.of(Double.parseDouble(s) * unit);
            } catch (NumberFormatException e) {
                return OptionalDouble.empty();
            }
        }

        /** Bytes in Postgres's syntax, whole GB when exact, else whole MB ({@code 16GB}, {@code 16128MB}). */
        public static String pgSize(long bytes) {
            long mb = (bytes + 1_048_575L) / 1_048_576L;
            return mb % 1024 == 0 ? (mb / 1024) + "GB" : mb + "MB";
        }

        /** {@code 1,234.5} style, with the decimals asked. */
        public static String num(double v, int decimals) {
            return String.format(Locale.ROOT, "%,." + decimals + "f", v);
        }
    }
}
