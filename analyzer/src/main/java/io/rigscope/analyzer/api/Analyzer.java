package io.rigscope.analyzer.api;

import io.rigscope.analyzer.attribution.Attributor;
import io.rigscope.analyzer.config.AnalyzerSettings;
import io.rigscope.analyzer.decision.Decision;
import io.rigscope.analyzer.decision.DecisionCodec;
import io.rigscope.analyzer.pipeline.AnalyzerInput;
import io.rigscope.analyzer.pipeline.AnalyzerPipeline;
import io.rigscope.analyzer.pipeline.AnalyzerPipeline.AnalyzerClock;
import io.rigscope.analyzer.series.Progress;
import io.rigscope.analyzer.series.SeriesAnalysis;
import io.rigscope.model.codec.Decoded;
import io.rigscope.model.wire.WireRecord;
import io.rigscope.wire.WirePublisher;
import io.rigscope.wire.WireSource;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import reactor.core.publisher.Flux;

/**
 * The analyzer, as every other part of rigscope uses it: records of one series in, typed {@link Decision}s out.
 * Immutable; each {@code with…} returns a new instance. The input comes from
 * {@link io.rigscope.analyzer.pipeline.AnalyzerInput} (Kafka topics or a wire file), or from any source of
 * decoded records.
 *
 * <pre>{@code
 * Flux<Decision> decisions = Analyzer.forSeries("s-1")
 *         .withOverrides(s -> s.withThresholds(thresholds))
 *         .live(AnalyzerInput.fromKafka(source, "s-1", true, dlq));
 * }</pre>
 *
 * <p>Both modes decide the same things from the same records: {@link #live} follows an input that keeps
 * coming and completes as soon as the series is complete (SERIES_END and every repeat's data); {@link #replay}
 * reads an input to its end. Either way the last decision is a {@link Decision.Series}. Cold: each subscription
 * runs its own analysis on its own thread.
 *
 * @param series the series id; records of other series are ignored
 * @param defaults settings before any CONFIG marker
 * @param overrides applied after every CONFIG marker (the command line's {@code --set} and {@code --threshold})
 * @param attributor names episodes' causes
 * @param clock the clock a live analysis reads ({@link AnalyzerClock#SYSTEM}; a test's virtual time)
 */
public record Analyzer(String series, AnalyzerSettings defaults, UnaryOperator<AnalyzerSettings> overrides,
                       Attributor attributor, AnalyzerClock clock) {

    public Analyzer {
        Objects.requireNonNull(series, "series");
        Objects.requireNonNull(defaults, "defaults");
        Objects.requireNonNull(overrides, "overrides");
        Objects.requireNonNull(attributor, "attributor");
        Objects.requireNonNull(clock, "clock");
    }

    /** An analyzer of one series with the default settings, no overrides and every attribution rule. */
    public static Analyzer forSeries(String series) {
        return new Analyzer(series, AnalyzerSettings.defaults(), UnaryOperator.identity(), Attributor.standard(),
                AnalyzerClock.SYSTEM);
    }

    /** This analyzer with settings overridden after every CONFIG marker. */
    public Analyzer withOverrides(UnaryOperator<AnalyzerSettings> replacement) {
        return new Analyzer(series, defaults, replacement, attributor, clock);
    }

    /** This analyzer naming causes with the given attributor. */
    public Analyzer withAttributor(Attributor replacement) {
        return new Analyzer(series, defaults, overrides, replacement, clock);
    }

    /** This analyzer reading {@code replacement} as its clock when live (a test's virtual time). */
    public Analyzer withClock(AnalyzerClock replacement) {
        return new Analyzer(series, defaults, overrides, attributor, replacement);
    }

    /** Decisions of a live input: completes once the series is complete, or when the input ends. */
    public Flux<Decision> live(Flux<List<WireRecord>> input) {
        return live(input, p -> { });
    }

    /** {@link #live(Flux)}, handing the run's progress counters to {@code onStart} when it starts. */
    public Flux<Decision> live(Flux<List<WireRecord>> input, Consumer<Progress> onStart) {
        return pipeline(SeriesAnalysis.Judging.AS_DATA_COMPLETES).decisions(input, true, onStart);
    }

    /** Decisions of an input read to its end (a replay of topics or a wire file). */
    public Flux<Decision> replay(Flux<List<WireRecord>> input) {
        return replay(input, p -> { });
    }

    /** {@link #replay(Flux)}, handing the run's progress counters to {@code onStart} when it starts. */
    public Flux<Decision> replay(Flux<List<WireRecord>> input, Consumer<Progress> onStart) {
        return pipeline(SeriesAnalysis.Judging.AT_FINISH).decisions(input, false, onStart);
    }

    /**
     * The verdict pipeline every reader of a series runs ({@code run}'s live analysis, {@code analyze}, the
     * analyzer service's every series, the live bench): the decisions of {@code input}, followed live or read to
     * its end, each published to {@code rig.verdicts} through {@code verdicts} as it is decided (null: published
     * nowhere). Cold, as {@link #live}.
     *
     * @param live follow the input ({@link #live}) or read it to its end ({@link #replay})
     * @param onStart receives the run's progress counters when it starts
     */
    public Flux<Decision> verdicts(Flux<List<WireRecord>> input, boolean live, Consumer<Progress> onStart,
                                   WirePublisher verdicts) {
        Flux<Decision> decisions = live ? live(input, onStart) : replay(input, onStart);
        return verdicts == null ? decisions : decisions.doOnNext(d -> verdicts.publish(DecisionCodec.toVerdict(d)));
    }

    /**
     * {@link #verdicts} of this series followed live on Kafka ({@link AnalyzerInput#fromKafka}: every topic, dead
     * letters to {@code dlq}).
     */
    public Flux<Decision> follow(WireSource source, Consumer<Decoded.Failed> dlq, WirePublisher verdicts,
                                 Consumer<Progress> onStart) {
        return verdicts(AnalyzerInput.fromKafka(source, series, true, dlq), true, onStart, verdicts);
    }

    /** A fresh in-memory analysis of this series, judging repeats as a live one does. */
    public SeriesAnalysis newAnalysis() {
        return newAnalysis(SeriesAnalysis.Judging.AS_DATA_COMPLETES);
    }

    /** A fresh in-memory analysis of this series (for callers that feed records themselves, e.g. benchmarks). */
    public SeriesAnalysis newAnalysis(SeriesAnalysis.Judging judging) {
        return new SeriesAnalysis(series, defaults, overrides, attributor, judging);
    }

    private AnalyzerPipeline pipeline(SeriesAnalysis.Judging judging) {
        return new AnalyzerPipeline(() -> newAnalysis(judging), clock);
    }
}
