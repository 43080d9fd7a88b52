package io.rigscope.analyzer.decision;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.rigscope.model.wire.ServerTiming;
import io.rigscope.model.wire.Verdict;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One decision of the analyzer, typed: what {@link io.rigscope.analyzer.api.Analyzer} emits and what every view (console, ladder,
 * ceiling, reports, {@code rig.verdicts}) reads. The closed set mirrors {@link Verdict.Kind}; {@link DecisionCodec}
 * turns a decision into its {@code rig.verdicts} record, once.
 *
 * <p>Every decision carries the series, the repeat (0 for series-level), the scenario (null for series-level)
 * and its event time {@link #tsUs()} (epoch µs, the end of the second it concerns: never the wall clock, so a
 * replay emits the same decisions).
 */
public sealed interface Decision {

    String series();

    int rep();

    /** The scenario it concerns, or null. */
    String scenario();

    /** Event time, epoch µs. */
    long tsUs();

    /** The verdict kind this decision is published as. */
    default Verdict.Kind kind() {
        if (this instanceof Second) {
            return Verdict.Kind.SECOND;
        } else if (this instanceof Freeze) {
            return Verdict.Kind.FREEZE;
        } else if (this instanceof TailWindow) {
            return Verdict.Kind.WINDOW;
        } else if (this instanceof EpisodeFound) {
            return Verdict.Kind.EPISODE;
        } else if (this instanceof Repeat) {
            return Verdict.Kind.REPEAT;
        } else if (this instanceof CeilingFound) {
            return Verdict.Kind.CEILING;
        } else if (this instanceof Stop) {
            return Verdict.Kind.ABORT;
        }
        return Verdict.Kind.SERIES;
    }

    /**
     * A second of one scenario: closed by the ledger watermark ({@code second.exact()}), closed at the end of
     * input, or shown while still open ({@code provisional}: it will be decided again when it closes).
     *
     * @param serviceHistogram the closed second's service times as the analyzer recorded them (the {@code --hlog}
     *     interval logs write it); null while provisional. Not part of the verdict's JSON.
     * @param serverTiming what the service said of its time in the second (Server-Timing): p50 and p99 per name and
     *     the slowest timed request's account; null when no request of the second carried the header, and while
     *     provisional. In the verdict's JSON as {@code server_timing} and {@code slowest_timed}.
     */
    record Second(String series, int rep, String scenario, long tsUs, SecondStats second, boolean provisional,
                  SecondHistogram serviceHistogram, Decision.SecondTiming serverTiming) implements Decision {
        public Second {
            Objects.requireNonNull(second, "second");
        }

        /** A second without the service's account of its time (no request of it carried Server-Timing). */
        public Second(String series, int rep, String scenario, long tsUs, SecondStats second, boolean provisional,
                      SecondHistogram serviceHistogram) {
            this(series, rep, scenario, tsUs, second, provisional, serviceHistogram, null);
        }

        /** A second without its histogram (a provisional one, or a view that never needs the distribution). */
        public Second(String series, int rep, String scenario, long tsUs, SecondStats second, boolean provisional) {
            this(series, rep, scenario, tsUs, second, provisional, null);
        }
    }

    /** A closed second that is a freeze-second, with the rule it met in words. */
    record Freeze(String series, int rep, String scenario, long tsUs, SecondStats second, String rule)
            implements Decision {
        public Freeze {
            Objects.requireNonNull(second, "second");
            Objects.requireNonNull(rule, "rule");
        }
    }

    /** A 10-s tail window of a judged repeat. */
    record TailWindow(String series, int rep, String scenario, long tsUs, Window window) implements Decision {
        public TailWindow {
            Objects.requireNonNull(window, "window");
        }
    }

    /**
     * A tail episode with its cause: final when its repeat is judged, or {@code provisional} while it is still
     * going (live only: the cause from the telemetry so far; the final one may differ).
     */
    record EpisodeFound(String series, int rep, String scenario, long tsUs, Episode episode, boolean provisional)
            implements Decision {
        public EpisodeFound {
            Objects.requireNonNull(episode, "episode");
        }
    }

    /** A repeat judged: its figures and every gate. */
    record Repeat(String series, int rep, String scenario, long tsUs, RepeatSummary summary) implements Decision {
        public Repeat {
            Objects.requireNonNull(summary, "summary");
        }
    }

    /**
     * Live only: a threshold with k6's {@code abortOnFail} failed while the repeat ran
     * ({@link io.rigscope.analyzer.repeat.RepeatJudge.AbortOnFail}); whoever runs the load stops the repeat and writes the
     * stop into its REPEAT_END marker, where the repeat's judgement reads it. Decided at most once per repeat.
     */
    record Stop(String series, int rep, String scenario, long tsUs, Abort abort) implements Decision {
        public Stop {
            Objects.requireNonNull(abort, "abort");
        }
    }

    /** The closed-loop ceiling measured (a maximum, never a service level). */
    record CeilingFound(String series, int rep, String scenario, long tsUs, Ceiling ceiling) implements Decision {
        public CeilingFound {
            Objects.requireNonNull(ceiling, "ceiling");
        }
    }

    /** The series judged: the report. Always the last decision of an analysis. */
    record Series(String series, long tsUs, SeriesReport report) implements Decision {
        public Series {
            Objects.requireNonNull(report, "report");
        }

        @Override
        public int rep() {
            return 0;
        }

        @Override
        public String scenario() {
            return null;
        }
    }

    /** The slowest request of a second and what the service said of it. */
    public record Worst(long sec, long serviceUs, ServerTiming timing) {
    }

    /**
     * What the service said of its time in one second: per name, p50 and p99 of the second (1 significant digit),
     * and the second's slowest request that carried timing, with its measured service time and its own account.
     *
     * @param figures per name, in first-appearance order
     * @param slowest the slowest timed request of the second
     */
    public record SecondTiming(Map<String, TimingFigure> figures, Worst slowest) {
        public SecondTiming {
            figures = Collections.unmodifiableMap(new LinkedHashMap<>(figures));
            java.util.Objects.requireNonNull(slowest, "slowest");
        }
    }

    /**
     * One Server-Timing metric's figures over a span (a repeat, or one second): the median and the 99th percentile of
     * the durations the service reported for it, ms (3 decimals).
     *
     * @param p50Ms median, ms
     * @param p99Ms 99th percentile, ms
     */
    @JsonPropertyOrder({"p50_ms", "p99_ms"})
    public record TimingFigure(@JsonProperty("p50_ms") double p50Ms, @JsonProperty("p99_ms") double p99Ms) {
    }
}
