package io.rigscope.rig.series;

import io.rigscope.generator.Generator;
import io.rigscope.generator.GeneratorOptions;
import io.rigscope.generator.RecordSink;
import io.rigscope.generator.RunSummary;
import io.rigscope.generator.ScenarioSummary;
import io.rigscope.generator.plan.LoadPlan;
import io.rigscope.generator.plan.LoopMode;
import io.rigscope.model.wire.WireRecord;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;

/**
 * Warms the reference SUT up before the first measured step, as anyone benchmarking a JVM does: the series' own
 * requests, open loop, at the highest rate the plan offers (the ladder's top rung or the sustained rate), for
 * {@link #length} (15 s; 5 s for a plan whose sustained repeats are shorter than 20 s, the quick demo), with
 * every record discarded: no repeat counts it, nothing reaches the wire. What it spares the first step: a service
 * JVM started seconds earlier that is still loading and compiling its request path and filling its connection pool
 * (docs/protocol.md, "Warming the service").
 */
public final class SutWarmup {

    /** The warm-up of a full plan. */
    public static final Duration FULL = Duration.ofSeconds(15);
    /** The warm-up of a short plan (sustained repeats under 20 s). */
    public static final Duration SHORT = Duration.ofSeconds(5);

    private SutWarmup() {
    }

    /** How long the warm-up of {@code plan} lasts. */
    public static Duration length(SeriesPlan plan) {
        return plan.sustained() != null && plan.sustained().duration().compareTo(Duration.ofSeconds(20)) < 0 ? SHORT
                : FULL;
    }

    /** The rate it offers: the highest the plan offers, requests per second. */
    public static double rate(SeriesPlan plan) {
        double rate = plan.sustained() == null ? 0 : plan.sustained().requestsPerSec();
        if (plan.ladder() != null) {
            for (double r : plan.ladder().requestsPerSec()) {
                rate = Math.max(rate, r);
            }
        }
        return rate > 0 ? rate : 50;
    }

    /** Runs it against the plan's target (blocking), saying so on the console before and after. */
    public static void run(SeriesPlan plan, PrintStream console) {
        Duration length = length(plan);
        double rate = rate(plan);
        console.printf(Locale.ROOT, "sut: warm-up: %d s at %.0f req/s of the series' own requests, not counted in any "
                + "repeat (a JVM started seconds ago is still compiling its request path; docs/protocol.md)%n",
                length.toSeconds(), rate);
        LoadPlan load = new LoadPlan(plan.series() + "-warmup", 0, "gen-warmup", "warmup", LoopMode.OPEN, length,
                SeriesRunner.scenariosOf(plan, rate, plan.load().maxInFlight(), LoopMode.OPEN), LoadPlan.Lifecycle.NONE);
        RecordSink discard = (WireRecord record) -> { };
        RunSummary summary = new Generator(discard, GeneratorOptions.defaults()).run(load)
                .block(length.plus(Duration.ofMinutes(2)));
        long sent = 0;
        long failed = 0;
        double lagP99 = 0;
        if (summary != null) {
            for (ScenarioSummary s : summary.scenarios()) {
                sent += s.sent();
                failed += s.failed();
                lagP99 = Math.max(lagP99, s.lagP99Ms());
            }
        }
        console.printf(Locale.ROOT, "sut: warm-up done: %,d requests sent, %,d failed (discarded)%n", sent, failed);
    }
}
