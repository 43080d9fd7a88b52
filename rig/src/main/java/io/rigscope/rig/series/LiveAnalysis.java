package io.rigscope.rig.series;

import io.rigscope.analyzer.api.Analyzer;
import io.rigscope.analyzer.decision.Decision;
import io.rigscope.analyzer.decision.Ceiling;
import io.rigscope.analyzer.decision.Episode;
import io.rigscope.analyzer.decision.Evidence;
import io.rigscope.analyzer.decision.GateResult;
import io.rigscope.analyzer.pipeline.AnalyzerInput;
import io.rigscope.analyzer.decision.RepeatSummary;
import io.rigscope.analyzer.report.ReportMaterial;
import io.rigscope.analyzer.decision.SecondStats;
import io.rigscope.analyzer.decision.SeriesReport;
import io.rigscope.wire.DeadLetterSink;
import io.rigscope.wire.WirePublisher;
import io.rigscope.wire.WireSource;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import reactor.core.Disposable;
import io.rigscope.generator.outbox.RecordSink;
import io.rigscope.model.wire.ErrorKind;
import io.rigscope.model.wire.Sample;
import io.rigscope.model.wire.SampleBatch;
import io.rigscope.model.wire.WireRecord;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The analyzer following a series while it runs, as the orchestrator's companion: it reads the series' topics
 * live, publishes its decisions to {@code rig.verdicts}, prints them as they are decided (one line per closed
 * second of the load, freeze-seconds, windows, episodes, repeats, the ceiling) and hands back the report. Every
 * figure the console shows is the analyzer's: there is no second set of histograms.
 *
 * <p>Start it before the series' load so that nothing is missed; {@link #await} after SERIES_END.
 */
public final class LiveAnalysis implements AutoCloseable {

    private static final DateTimeFormatter HH_MM_SS = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneOffset.UTC);

    private final CompletableFuture<SeriesReport> report;
    private final Disposable subscription;
    private final ReportMaterial kept;
    /** Repeats decided so far by number (a ceiling's as null summary), written on the analyzer's thread. */
    private final java.util.concurrent.ConcurrentHashMap<Integer, java.util.Optional<RepeatSummary>> decided;

    private LiveAnalysis(CompletableFuture<SeriesReport> report, Disposable subscription, ReportMaterial kept,
                         java.util.concurrent.ConcurrentHashMap<Integer, java.util.Optional<RepeatSummary>> decided) {
        this.report = report;
        this.subscription = subscription;
        this.kept = kept;
        this.decided = decided;
    }

    /**
     * Starts following the series.
     *
     * @param source reads the topics
     * @param publisher publishes verdicts and dead letters
     * @param analyzer the analyzer of the series (settings, attribution)
     * @param console where decisions are printed
     */
    public static LiveAnalysis start(WireSource source, WirePublisher publisher, Analyzer analyzer,
                                     PrintStream console) {
        return start(source, publisher, analyzer, console, stop -> { });
    }

    /**
     * Starts following the series, telling {@code onStop} (on the analyzer's thread, after the decision is printed
     * and published) when a threshold with {@code abortOnFail} calls for a repeat to stop.
     */
    public static LiveAnalysis start(WireSource source, WirePublisher publisher, Analyzer analyzer,
                                     PrintStream console, Consumer<Decision.Stop> onStop) {
        return start(source, publisher, analyzer, console, onStop, d -> { });
    }

    /**
     * {@link #start(WireSource, WirePublisher, Analyzer, PrintStream, Consumer)}, also handing every decision to
     * {@code alsoTo} as it is decided, before it is printed (an export: {@code --prometheus-rw}); {@code alsoTo}
     * must not block or throw.
     */
    public static LiveAnalysis start(WireSource source, WirePublisher publisher, Analyzer analyzer,
                                     PrintStream console, Consumer<Decision.Stop> onStop, Consumer<Decision> alsoTo) {
        Objects.requireNonNull(console, "console");
        Objects.requireNonNull(alsoTo, "alsoTo");
        Objects.requireNonNull(onStop, "onStop");
        DeadLetterSink dlq = new DeadLetterSink(publisher);
        CompletableFuture<SeriesReport> result = new CompletableFuture<>();
        ReportMaterial kept = new ReportMaterial(analyzer.series(), true, true);
        var decided = new java.util.concurrent.ConcurrentHashMap<Integer, java.util.Optional<RepeatSummary>>();
        Disposable d = analyzer.verdicts(AnalyzerInput.fromKafka(source, analyzer.series(), true, dlq)
                        .doOnNext(kept::records), true, p -> { }, publisher)
                .doOnNext(alsoTo)
                .subscribe(decision -> {
                    kept.decision(decision);
                    String line = line(decision, analyzer.defaults().probeScenario());
                    if (line != null) {
                        console.println(line);
                    }
                    if (decision instanceof Decision.Repeat r) {
                        decided.put(r.rep(), java.util.Optional.of(r.summary()));
                    } else if (decision instanceof Decision.CeilingFound c) {
                        decided.put(c.rep(), java.util.Optional.empty());
                    }
                    if (decision instanceof Decision.Stop stop) {
                        onStop.accept(stop);
                    }
                    if (decision instanceof Decision.Series s) {
                        result.complete(s.report());
                    }
                }, result::completeExceptionally, () -> result.completeExceptionally(
                        new IllegalStateException("the analyzer ended without a series verdict")));
        return new LiveAnalysis(result, d, kept, decided);
    }

    /**
     * Waits (on the command thread) until repeats 1..{@code lastRep} are decided and printed, or {@code timeout}
     * passed, so that a step after them (pgbench) never prints among their lines.
     *
     * @return the repeats (not the ceiling) decided by then, in order
     */
    public List<RepeatSummary> awaitRepeats(int lastRep, Duration timeout) {
        long deadlineNs = System.nanoTime() + timeout.toNanos();
        while (decided.size() < lastRep && System.nanoTime() < deadlineNs && !report.isDone()) {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return decided.entrySet().stream().sorted(java.util.Map.Entry.comparingByKey())
                .flatMap(e -> e.getValue().stream()).toList();
    }

    /**
     * What the report files are drawn from so far (final decisions, the telemetry the page plots); complete once
     * {@link #await} returned.
     */
    public ReportMaterial material() {
        return kept;
    }

    /** The series report, once the analyzer has seen SERIES_END and every repeat's data. */
    public SeriesReport await(Duration timeout) {
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

    /**
     * The console line for a decision, or null for the ones not printed (provisional seconds, the probe's): what
     * {@code run} prints and what {@code analyze} prints while it follows a series live.
     *
     * @param probeScenario the read probe's scenario name, whose seconds and freeze-seconds are not printed
     */
    public static String line(Decision decision, String probeScenario) {
        if (decision instanceof Decision.Second d) {
            return d.provisional() || probeScenario.equals(d.scenario()) ? null : secondLine(d.scenario(), d.second());
        }
        if (decision instanceof Decision.Freeze f) {
            SecondStats s = f.second();
            return probeScenario.equals(f.scenario()) ? null
                    : String.format(Locale.ROOT, "   ! freeze-second %s %s: worst %s ms, %d of %d requests slow, p50 %s ms",
                    HH_MM_SS.format(Instant.ofEpochSecond(s.sec())), f.scenario(), s.maxServiceUs() / 1000.0,
                    s.slowCount(), s.count(), s.p50ServiceUs() / 1000.0);
        }
        if (decision instanceof Decision.TailWindow w) {
            return String.format(Locale.ROOT, "   ! tail window rep %d %s: %d-%d, %d buckets, worst bucket p99 %s ms",
                    w.rep(), w.scenario(), w.window().startSec(), w.window().endSec(), w.window().buckets(),
                    w.window().worstP99Us() / 1000.0);
        }
        if (decision instanceof Decision.EpisodeFound e) {
            return e.provisional() ? provisionalLine(e.episode()) : episodeLine(e.episode());
        }
        if (decision instanceof Decision.Repeat r) {
            return repeatLine(r.summary());
        }
        if (decision instanceof Decision.Stop s) {
            return "   ! rep " + s.rep() + " " + s.abort().describe() + ": stopping the repeat";
        }
        if (decision instanceof Decision.CeilingFound c) {
            Ceiling x = c.ceiling();
            return String.format(Locale.ROOT, "   ceiling: %.0f req/s, %.0f events/s (closed loop), %d failed",
                    x.requestsPerSec(), x.eventsPerSec(), x.failed());
        }
        return null;
    }

    /** An episode still going: how long so far, the key evidence and the cause it points to, provisional. */
    static String provisionalLine(Episode e) {
        return String.format(Locale.ROOT, "   ~ freeze in progress %d s since %s: %s -> %s (%s), provisional",
                e.freezeSeconds(), HH_MM_SS.format(Instant.ofEpochSecond(e.startSec())), keyEvidence(e),
                e.cause().code(), e.confidence().code());
    }

    private static String keyEvidence(Episode e) {
        return e.evidence().stream()
                .filter(ev -> !ev.stream().equals("rig.samples") && !ev.stream().equals("rig.health"))
                .map(Evidence::text).findFirst().orElse(e.evidence().isEmpty() ? "" : e.evidence().get(0).text());
    }

    /**
     * An episode: its span, cause and confidence, and the key evidence (the rule's first fact); then, when it has a
     * lever, a second line: {@code     lever: min_wal_size=16GB (WAL rate 53.3 MB/s ...)}.
     */
    public static String episodeLine(Episode e) {
        String key = keyEvidence(e);
        String line = String.format(Locale.ROOT, "   ! episode rep %d: %s..%s, %d freeze-s, cause %s (%s)%s: %s%s",
                e.rep(), HH_MM_SS.format(Instant.ofEpochSecond(e.startSec())),
                HH_MM_SS.format(Instant.ofEpochSecond(e.endSec())), e.freezeSeconds(), e.cause().code(),
                e.confidence().code(), e.secondary() == null ? "" : ", also " + e.secondary().code(), key,
                e.missingSilentSinceSec().isEmpty() ? "" : " [missing: " + e.missingLine() + "]");
        return e.lever() == null ? line : line + System.lineSeparator() + leverLine(e.lever());
    }

    /** {@code     lever: SETTING=VALUE (why)}, or the action, or {@code not computed: why}. */
    public static String leverLine(io.rigscope.analyzer.decision.Lever lever) {
        return "     lever: " + (lever.computed() ? lever.headline() + " (" + lever.why() + ")"
                : "not computed: " + lever.why());
    }

    /** A closed second of the load, as the analyzer decided it. */
    static String secondLine(String scenario, SecondStats s) {
        return String.format(Locale.ROOT,
                "%s %-10s offered %6d  sent %6d  done %6d  dropped %5d  in-flight %5d  p50 %8.2f ms  p99 %8.2f ms  errors %d",
                HH_MM_SS.format(Instant.ofEpochSecond(s.sec())), scenario, s.ledger().scheduled(), s.ledger().sent(),
                s.count(), s.ledger().dropped(), s.ledger().inFlight(), s.p50ServiceUs() / 1000.0,
                s.p99ServiceUs() / 1000.0, s.failed());
    }

    /** A judged repeat: its figures, what it claims, and the gates that failed (or how many held). */
    static String repeatLine(RepeatSummary r) {
        List<GateResult> failed = r.failedGates();
        List<GateResult> heldWithReason = r.heldGatesWithReason();
        String gates = (failed.isEmpty() ? "every gate held (" + r.gates().size() + ")"
                : "failed " + String.join(", ", failed.stream().map(GateResult::describe).toList()))
                + (heldWithReason.isEmpty() ? "" : "; held " + String.join(", ",
                        heldWithReason.stream().map(GateResult::describe).toList()));
        long primaryDropped = r.scenario() == null ? r.dropped() : r.droppedIn(r.scenario());
        StringBuilder others = new StringBuilder();
        r.droppedByScenario().forEach((name, n) -> {
            if (!name.equals(r.scenario())) {
                // one drop count per scenario, each on its own line, as the generator's lines count them
                others.append(String.format(Locale.ROOT, "%n   analyzer: repeat %d %s: %d dropped", r.rep(), name, n));
            }
        });
        return String.format(Locale.ROOT, "   analyzer: repeat %d %s: %d samples, %d dropped, %d failed; p50 %s ms, "
                        + "p99 %s ms (service); %d events claimed; %s", r.rep(), r.pass() ? "PASS" : "FAIL",
                r.samples(), primaryDropped, r.failed(), r.p50Ms(), r.p99Ms(), r.eventsClaimed(), gates)
                + others
                + (r.silence() == null ? "" : "\n   ! rep " + r.rep() + " ended: " + r.silence().describe() + "; "
                        + r.silence().lossLine());
    }

    @Override
    public void close() {
        subscription.dispose();
    }

    /**
     * A {@link RecordSink} that hands every record on and prints one console line per distinct failure of the load, the
     * first time it shows: {@code ingest: connection refused by http://127.0.0.1:1/v1/usage-events (42 requests so
     * far)}. Distinct is the scenario and error kind, and for an HTTP error the status. Never a stack trace, never a
     * line per request: the counts are in the summary and the figures in the analyzer's report.
     *
     * <p>Called on the generator's one drain thread (as every sink), so it needs no lock.
     */
    public static final class FailureLines implements RecordSink {

        private final RecordSink next;
        private final Map<String, String> urls;
        private final PrintStream console;
        private final Map<String, Long> seen = new HashMap<>();

        /**
         * @param next where records go
         * @param urls scenario -> the URL its load goes to
         * @param console where the lines go
         */
        public FailureLines(RecordSink next, Map<String, String> urls, PrintStream console) {
            this.next = Objects.requireNonNull(next, "next");
            this.urls = Map.copyOf(urls);
            this.console = Objects.requireNonNull(console, "console");
        }

        @Override
        public void publish(WireRecord record) {
            note(record);
            next.publish(record);
        }

        @Override
        public void publish(WireRecord record, Acknowledgement ack) {
            note(record);
            next.publish(record, ack);
        }

        private void note(WireRecord record) {
            if (record instanceof SampleBatch batch) {
                Map<String, Sample> firstHere = new LinkedHashMap<>();
                for (Sample s : batch.samples()) {
                    if (s.failed()) {
                        String key = s.scenario() + "|" + s.err().code() + (httpKind(s.err()) ? "|" + s.status() : "");
                        if (seen.merge(key, 1L, Long::sum) == 1) {
                            firstHere.put(key, s);
                        }
                    }
                }
                // printed once the batch is counted: "so far" is every such failure up to the end of this batch
                firstHere.forEach((key, s) -> console.println(line(s, seen.get(key))));
            }
        }

        @Override
        public void flush() {
            next.flush();
        }

        private static boolean httpKind(ErrorKind kind) {
            return kind == ErrorKind.HTTP_4XX || kind == ErrorKind.HTTP_5XX;
        }

        /** {@code ingest: connection refused by URL (N requests so far)}, worded by the error kind. */
        String line(Sample s, long soFar) {
            String url = urls.getOrDefault(s.scenario(), "its URL");
            String what;
            ErrorKind kind = s.err();
            if (kind == ErrorKind.REFUSED) {
                what = "connection refused by " + url;
            } else if (kind == ErrorKind.TIMEOUT) {
                what = "requests to " + url + " timed out";
            } else if (kind == ErrorKind.RESET) {
                what = "connection reset by " + url;
            } else if (kind == ErrorKind.CHECK) {
                what = url + " answered " + s.status() + ", which failed the scenario's check";
            } else if (httpKind(kind)) {
                what = url + " answered " + s.status();
            } else {
                what = "requests to " + url + " failed (" + kind.code()
                        + (s.status() > 0 ? ", status " + s.status() : "") + ")";
            }
            return s.scenario() + ": " + what + " (" + soFar + (soFar == 1 ? " request" : " requests") + " so far)";
        }
    }
}
