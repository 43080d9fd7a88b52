package io.rigscope.rig.selftest;

import io.rigscope.analyzer.api.Analyzer;
import io.rigscope.analyzer.decision.Decision;
import io.rigscope.analyzer.config.AnalyzerSettings;
import io.rigscope.analyzer.pipeline.AnalyzerInput;
import io.rigscope.analyzer.decision.RepeatSummary;
import io.rigscope.analyzer.decision.RepeatSummary.Silence;
import io.rigscope.analyzer.report.ReportFiles;
import io.rigscope.analyzer.decision.SeriesReport;
import io.rigscope.generator.target.BenchServer;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.model.topic.Topic;
import io.rigscope.model.wire.Ledger;
import io.rigscope.wire.WireSource;
import io.rigscope.wire.kafka.KafkaClients;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The generator-killed-mid-repeat guarantee: {@code rigscope generate --rep 1 --rate 100 --duration 30s} in a child
 * JVM, against a local HTTP server, is killed with SIGKILL {@link #KILL_AFTER} after its first ledger; a live analyzer
 * following the series judges the repeat {@code ended_by: generator_silent} within the silence grace (plus the
 * analyzer's 1-s tick), never PASS, and a replay of the topics writes the same report byte for byte.
 *
 * @param killExit the generator's exit code (137: SIGKILL)
 * @param judgedAfterSec from the kill to the live REPEAT verdict, s (wall clock)
 * @param graceSec {@code generator_silence_s}
 * @param endedBy the live report's {@code ended_by} of repeat 1 (null when it has none)
 * @param passed whether repeat 1 passed (it must not)
 * @param silence the repeat's silence as the live report states it, or null
 * @param identical the replay's report equals the live report byte for byte
 * @param reportBytes the live report's size
 */
record GeneratorKill(int killExit, double judgedAfterSec, int graceSec, String endedBy, boolean passed,
                            String silence, boolean identical, int reportBytes) {

    /** From the first ledger on the wire to the kill. */
    public static final Duration KILL_AFTER = Duration.ofSeconds(5);

    /** The kill was a kill; the repeat failed by the silence within the grace plus 3 s; the replay agrees. */
    public boolean holds() {
        return killExit == 137 && Silence.ENDED_BY.equals(endedBy) && !passed && judgedAfterSec >= 0
                && judgedAfterSec <= graceSec + 3 && identical;
    }

    /** Runs the scenario on the broker at {@code bootstrap}; child logs go to {@code workDir}. */
    static GeneratorKill run(String bootstrap, String series, Path workDir, PrintStream progress) {
        WireCodec codec = new WireCodec();
        int graceSec = AnalyzerSettings.defaults().generatorSilenceSec();
        try (BenchServer server = new BenchServer(1)) {
            AtomicLong judgedUs = new AtomicLong(-1);
            CompletableFuture<SeriesReport> live = CompletableFuture.supplyAsync(() -> {
                Decision last = Analyzer.forSeries(series)
                        .live(AnalyzerInput.fromKafka(new WireSource(KafkaClients.of(bootstrap), codec), series, true,
                                f -> { }).take(Duration.ofSeconds(120)))
                        .doOnNext(d -> {
                            if (d instanceof Decision.Repeat) {
                                judgedUs.compareAndSet(-1, nowUs());
                            }
                        })
                        .blockLast(Duration.ofSeconds(180));
                return ((Decision.Series) last).report();
            });
            Path log = workDir.resolve(series + ".generate.log");
            List<String> command = List.of(FaultSeries.Child.javaBinary(), "-Xmx512m", "-cp",
                    System.getProperty("java.class.path"), "io.rigscope.rig.Main", "generate", "--bootstrap",
                    bootstrap, "--url", server.url(), "--rate", "100", "--duration", "30s", "--batch", "0", "--method",
                    "GET", "--series", series, "--rep", "1");
            Process generator = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.to(log.toFile())).start();
            long killedUs;
            int killExit;
            try {
                Ledger first = new WireSource(KafkaClients.of(bootstrap), codec)
                        .records(new WireSource.Spec(EnumSet.of(Topic.LEDGER), series, true, true), f -> { })
                        .filter(r -> r instanceof Ledger).cast(Ledger.class).blockFirst(Duration.ofSeconds(60));
                if (first == null) {
                    throw new IllegalStateException("the generator published no ledger in 60 s (log " + log + ")");
                }
                progress.printf("  generator child pid %d running (log %s); killing it in %d s%n", generator.pid(), log,
                        KILL_AFTER.toSeconds());
                Thread.sleep(KILL_AFTER.toMillis());
            } finally {
                generator.destroyForcibly();
                killedUs = nowUs();
                killExit = generator.waitFor(30, TimeUnit.SECONDS) ? generator.exitValue() : -1;
            }
            SeriesReport report = live.get(180, TimeUnit.SECONDS);
            byte[] liveJson = ReportFiles.json(report);
            Decision replayed = Analyzer.forSeries(series)
                    .replay(AnalyzerInput.fromKafka(new WireSource(KafkaClients.of(bootstrap), codec), series, false,
                            f -> { }))
                    .blockLast(Duration.ofSeconds(120));
            byte[] replayJson = ReportFiles.json(((Decision.Series) replayed).report());
            RepeatSummary rep = report.repeats().isEmpty() ? null : report.repeats().get(0);
            double judgedAfterSec = judgedUs.get() < 0 ? -1 : (judgedUs.get() - killedUs) / 1e6;
            return new GeneratorKill(killExit, judgedAfterSec, graceSec, rep == null ? null : rep.endedBy(),
                    rep != null && rep.pass(), rep == null || rep.silence() == null ? null : rep.silence().describe(),
                    Arrays.equals(liveJson, replayJson), liveJson.length);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start rigscope generate as a child process", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("the live analyzer of " + series + " did not finish: " + e, e);
        }
    }

    private static long nowUs() {
        return Clock.systemUTC().millis() * 1000L;
    }
}
