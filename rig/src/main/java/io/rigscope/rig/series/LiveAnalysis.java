package io.rigscope.rig.series;

import io.rigscope.analyzer.config.AnalyzerSettings;
import io.rigscope.analyzer.episode.Attributor;
import io.rigscope.analyzer.pipeline.AnalyzerInput;
import io.rigscope.analyzer.pipeline.AnalyzerPipeline;
import io.rigscope.analyzer.series.SeriesAnalysis;
import io.rigscope.model.wire.Verdict;
import io.rigscope.wire.DeadLetterSink;
import io.rigscope.wire.WirePublisher;
import io.rigscope.wire.WireSource;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import reactor.core.Disposable;

/**
 * The analyzer following a series while it runs, as the orchestrator's companion: it reads the series' topics
 * live, publishes its verdicts to {@code rig.verdicts}, prints freeze-seconds, windows, episodes and repeat
 * verdicts as they are decided, and hands back the final report (the SERIES verdict's body).
 *
 * <p>Start it before the series' load so that nothing is missed; {@link #await} after SERIES_END.
 */
public final class LiveAnalysis implements AutoCloseable {

    private final CompletableFuture<Map<String, Object>> report;
    private final Disposable subscription;

    private LiveAnalysis(CompletableFuture<Map<String, Object>> report, Disposable subscription) {
        this.report = report;
        this.subscription = subscription;
    }

    /**
     * Starts following the series.
     *
     * @param source reads the topics
     * @param publisher publishes verdicts and dead letters
     * @param series the series id
     * @param console where decisions are printed
     */
    public static LiveAnalysis start(WireSource source, WirePublisher publisher, String series, PrintStream console) {
        Objects.requireNonNull(console, "console");
        DeadLetterSink dlq = new DeadLetterSink(publisher);
        AnalyzerPipeline pipeline = new AnalyzerPipeline(() -> new SeriesAnalysis(series, AnalyzerSettings.defaults(),
                s -> s, Attributor.none()));
        CompletableFuture<Map<String, Object>> result = new CompletableFuture<>();
        Disposable d = pipeline.verdicts(AnalyzerInput.fromKafka(source, series, true, dlq), true, progress -> { })
                .doOnNext(publisher::publish)
                .subscribe(v -> {
                    String line = line(v);
                    if (line != null) {
                        console.println(line);
                    }
                    if (v.kind() == Verdict.Kind.SERIES) {
                        result.complete(v.body());
                    }
                }, result::completeExceptionally, () -> result.completeExceptionally(
                        new IllegalStateException("the analyzer ended without a series verdict")));
        return new LiveAnalysis(result, d);
    }

    /** The series report, once the analyzer has seen SERIES_END and every repeat's data. */
    public Map<String, Object> await(Duration timeout) {
        try {
            return report.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new IllegalStateException("the analyzer did not finish the series within " + timeout
                    + " after its end (is every generator's last ledger published?)", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("the analyzer failed: " + e.getCause().getMessage(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the analyzer", e);
        }
    }

    private static final java.time.format.DateTimeFormatter HH_MM_SS =
            java.time.format.DateTimeFormatter.ofPattern("HH:mm:ss").withZone(java.time.ZoneOffset.UTC);

    /** The console line for a decision, or null for the ones not printed (SECOND: the generator prints those). */
    static String line(Verdict v) {
        Map<String, Object> b = v.body();
        return switch (v.kind()) {
            case FREEZE -> "probe".equals(v.scenario()) ? null
                    : String.format("   ! freeze-second %s %s: worst %s ms, %s of %s requests slow, p50 %s ms",
                    HH_MM_SS.format(java.time.Instant.ofEpochSecond(((Number) b.get("sec")).longValue())), v.scenario(),
                    b.get("max_ms"), b.get("slow"), b.get("count"), b.get("p50_ms"));
            case WINDOW -> String.format("   ! tail window rep %d %s: %s", v.rep(), v.scenario(), b);
            case EPISODE -> String.format("   ! episode rep %d: %s..%s cause %s (%s)", v.rep(), b.get("start"),
                    b.get("end"), b.get("cause"), b.get("confidence"));
            case REPEAT -> String.format("   analyzer: repeat %d %s: %s", v.rep(),
                    Boolean.TRUE.equals(b.get("pass")) ? "PASS" : "FAIL", gatesLine(b));
            case SERIES, SECOND -> null;
        };
    }

    private static String gatesLine(Map<String, Object> repeat) {
        Object gates = repeat.get("gates");
        if (!(gates instanceof Map<?, ?> map)) {
            return "";
        }
        StringBuilder failed = new StringBuilder();
        map.forEach((name, g) -> {
            if (g instanceof Map<?, ?> gate && Boolean.FALSE.equals(gate.get("pass"))) {
                failed.append(failed.length() == 0 ? "failed " : ", ").append(name).append(" (")
                        .append(gate.get("value")).append(" vs ").append(gate.get("limit")).append(')');
            }
        });
        return failed.length() == 0 ? "every gate held (" + map.size() + ")" : failed.toString();
    }

    @Override
    public void close() {
        subscription.dispose();
    }
}
