package io.rigscope.importers.k6.follow;

import io.rigscope.analyzer.decision.SecondClosing;
import io.rigscope.analyzer.threshold.K6Verdict;
import io.rigscope.importers.k6.K6Import;
import io.rigscope.importers.k6.K6LineRecords.K6Line;
import io.rigscope.importers.k6.K6LineRecords;
import io.rigscope.model.topic.Topic;
import io.rigscope.model.wire.Config;
import io.rigscope.model.wire.DeadLetter;
import io.rigscope.model.wire.K6Threshold;
import io.rigscope.model.wire.Ledger;
import io.rigscope.model.wire.Marker;
import io.rigscope.model.wire.RepeatEnd;
import io.rigscope.model.wire.RepeatStart;
import io.rigscope.model.wire.Sample;
import io.rigscope.model.wire.SampleBatch;
import io.rigscope.model.wire.SeriesEnd;
import io.rigscope.model.wire.SeriesStart;
import io.rigscope.model.wire.WireRecord;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * Follows a running k6 and publishes what {@code rigscope import k6} would publish for the same lines, as the
 * lines come: samples (each {@code http_req_duration} point), drops ({@code dropped_iterations}), the thresholds
 * of {@code Metric} lines as the series' CONFIG, and the series' and the repeat's start and end markers. Each line
 * is converted by {@link K6LineRecords} (the import's own per-line conversion).
 *
 * <p>What k6 cannot give is not invented: there is no intended send time, so {@code t0 = t1} and response equals
 * service; no count per second, so the REPEAT_START marker declares the time watermark
 * ({@link SecondClosing.ByTime}: a second closes once the stream is {@code lateness} past its end) and the
 * REPEAT_END states the samples published per scenario; no generator health is published (attribution lists
 * {@code rig.health} as missing). Drops travel as ledger records holding only {@code dropped} (and
 * {@code scheduled} = {@code dropped}): what k6 counted.
 *
 * <p>An unreadable line goes to {@code rig.dlq} with its reason and is counted; the follow goes on. Runs on the
 * caller's thread (blocking reads and publishes), until the source is idle for {@code stopAfterIdle}, the
 * duration passed, or {@code stop} says so (Ctrl-C); then it publishes the end markers.
 */
public final class K6Follow {

    /**
     * @param series the series id to publish under
     * @param rep the repeat number the run is
     * @param generator the {@code src} of the samples, drops and markers
     * @param scenarioMap k6 scenario name -> rigscope scenario name
     * @param reconciliationRequired written to the CONFIG marker (k6 holds no database count)
     * @param lateness the time watermark's lateness: how far past a second's end the stream must be to close it
     * @param stopAfterIdle end when no new line came for this long after the first one (before it, the follow waits
     *                      for k6 to start); null: never
     * @param duration end after this long; null: never
     * @param batchSize samples per published batch at most
     * @param flushEvery publish pending samples at least this often
     */
    public record Options(String series, int rep, String generator, Map<String, String> scenarioMap,
                          boolean reconciliationRequired, Duration lateness, Duration stopAfterIdle, Duration duration,
                          int batchSize, Duration flushEvery) {
        public Options {
            Objects.requireNonNull(series, "series");
            Objects.requireNonNull(generator, "generator");
            scenarioMap = Map.copyOf(scenarioMap);
            Objects.requireNonNull(lateness, "lateness");
            if (lateness.isNegative()) {
                throw new IllegalArgumentException("lateness must be >= 0, was " + lateness);
            }
            if (rep < 1) {
                throw new IllegalArgumentException("rep must be >= 1, was " + rep);
            }
            if (batchSize < 1) {
                throw new IllegalArgumentException("batchSize must be >= 1, was " + batchSize);
            }
            Objects.requireNonNull(flushEvery, "flushEvery");
        }

        /** Defaults: rep 1, src {@code k6}, lateness 2 s, 500 samples or 200 ms a batch, no idle stop. */
        public static Options of(String series) {
            return new Options(series, 1, "k6", Map.of(), true, Duration.ofSeconds(2), null, null, 500,
                    Duration.ofMillis(200));
        }

        public Options withLateness(Duration value) {
            return new Options(series, rep, generator, scenarioMap, reconciliationRequired, value, stopAfterIdle,
                    duration, batchSize, flushEvery);
        }

        public Options withStopAfterIdle(Duration value) {
            return new Options(series, rep, generator, scenarioMap, reconciliationRequired, lateness, value,
                    duration, batchSize, flushEvery);
        }

        public Options withDuration(Duration value) {
            return new Options(series, rep, generator, scenarioMap, reconciliationRequired, lateness, stopAfterIdle,
                    value, batchSize, flushEvery);
        }

        public Options withScenarioMap(Map<String, String> value) {
            return new Options(series, rep, generator, value, reconciliationRequired, lateness, stopAfterIdle,
                    duration, batchSize, flushEvery);
        }

        public Options withReconciliationRequired(boolean value) {
            return new Options(series, rep, generator, scenarioMap, value, lateness, stopAfterIdle, duration,
                    batchSize, flushEvery);
        }

        public Options withGenerator(String value) {
            return new Options(series, rep, value, scenarioMap, reconciliationRequired, lateness, stopAfterIdle,
                    duration, batchSize, flushEvery);
        }
    }

    /** Why the follow ended. */
    public enum Ending {
        IDLE("idle"), DURATION("duration"), STOPPED("stopped"),
        /** The source or the output failed: what was read is closed off with the end markers, then it fails. */
        FAILED("failed");

        private final String code;

        Ending(String code) {
            this.code = code;
        }

        public String code() {
            return code;
        }
    }

    /**
     * What a follow read and published.
     *
     * @param lines lines read (the cut last line included)
     * @param samples samples published
     * @param dropped iterations k6 dropped
     * @param unreadable lines sent to rig.dlq
     * @param cutShort the last line was unreadable (k6 stopped mid-line)
     * @param ending why it ended
     * @param notJudged thresholds the CONFIG leaves out (rigscope's own syntax does not read them): judged only when
     *                  the repeat ends, as {@code import k6} judges them (REPEAT_END {@code k6_thresholds})
     */
    public record Result(long lines, long samples, long dropped, long unreadable, boolean cutShort, Ending ending,
                         List<String> notJudged) {
        public Result {
            notJudged = List.copyOf(notJudged);
        }
    }

    private final Options options;
    private final Consumer<WireRecord> out;
    private final Consumer<String> notes;

    /**
     * @param out receives every record in publication order (a publisher, a wire file)
     * @param notes receives one sentence per event worth telling on the console
     */
    public K6Follow(Options options, Consumer<WireRecord> out, Consumer<String> notes) {
        this.options = Objects.requireNonNull(options, "options");
        this.out = Objects.requireNonNull(out, "out");
        this.notes = Objects.requireNonNull(notes, "notes");
    }

    /**
     * Follows {@code source} until it is idle for {@link Options#stopAfterIdle}, the duration passed, or
     * {@code stop} returns true; publishes the end markers (when anything started) and returns what it did. When
     * the source or the output fails, the end markers ({@code ended_by: failed}) are published if they can be,
     * then the failure is thrown.
     *
     * @param progress called at most once a second, when lines came, with the counts so far
     */
    public Result run(K6LineSource source, BooleanSupplier stop, Consumer<Result> progress) throws IOException {
        Run run = new Run(source.name());
        long startNs = System.nanoTime();
        long lastLineNs = startNs;
        long lastFlushNs = startNs;
        long lastProgressNs = startNs;
        long lastProgressLines = 0;
        Ending ending = Ending.STOPPED;
        try {
            while (true) {
                if (stop.getAsBoolean()) {
                    ending = Ending.STOPPED;
                    break;
                }
                long now = System.nanoTime();
                if (options.duration() != null && now - startNs >= options.duration().toNanos()) {
                    ending = Ending.DURATION;
                    break;
                }
                if (options.stopAfterIdle() != null && run.lineNo > 0
                        && now - lastLineNs >= options.stopAfterIdle().toNanos()) {
                    ending = Ending.IDLE;
                    break;
                }
                List<String> lines = source.poll(Duration.ofMillis(100));
                now = System.nanoTime();
                if (!lines.isEmpty()) {
                    for (String line : lines) {
                        run.line(line);
                    }
                    now = System.nanoTime();
                    lastLineNs = now; // idle counts from when the lines were handled, not from when they were read
                }
                if (run.pending.size() >= options.batchSize() || now - lastFlushNs >= options.flushEvery().toNanos()) {
                    run.flush();
                    lastFlushNs = now;
                }
                if (now - lastProgressNs >= 1_000_000_000L && run.lineNo != lastProgressLines) {
                    progress.accept(run.result(ending));
                    lastProgressNs = now;
                    lastProgressLines = run.lineNo;
                }
            }
        } catch (IOException | RuntimeException e) {
            try {
                run.end(Ending.FAILED);
            } catch (RuntimeException alsoFailed) {
                e.addSuppressed(alsoFailed);
            }
            throw e;
        }
        String rest = source.remainder();
        if (rest != null) {
            run.line(rest);
            if (run.lastUnreadable) {
                notes.accept(source.name() + " ends with a line cut short (no newline; what a k6 stopped mid-write "
                        + "leaves): sent to rig.dlq, the repeat's end is marked cut short");
            }
        }
        run.end(ending);
        return run.result(ending);
    }

    /** One follow's state. */
    private final class Run {
        private final String origin;
        private final K6LineRecords converter;
        private final List<Sample> pending = new ArrayList<>();
        /** scenario -> second -> iterations dropped, not yet published. */
        private final Map<String, TreeMap<Long, Long>> drops = new TreeMap<>();
        private final Map<String, Long> publishedByScenario = new TreeMap<>();
        private final List<String> notJudged = new ArrayList<>();
        private Config config;
        private boolean started;
        private long lineNo;
        private long samples;
        private long dropped;
        private long unreadable;
        private boolean lastUnreadable;
        private long lastUs = 1;

        Run(String origin) {
            this.origin = origin;
            this.converter = new K6LineRecords(origin, new K6Import.Options(options.series(), options.rep(),
                    options.generator(), options.scenarioMap(), options.reconciliationRequired(), false, 1));
            this.config = converter.config();
        }

        void line(String text) {
            lineNo++;
            K6Line line = converter.convert(text);
            lastUnreadable = line instanceof K6LineRecords.Unreadable;
            if (line instanceof K6LineRecords.Request r) {
                ensureStarted(r.sample().t1());
                pending.add(r.sample());
                samples++;
                publishedByScenario.merge(r.sample().scenario(), 1L, Long::sum);
                lastUs = Math.max(lastUs, r.sample().t2());
            } else if (line instanceof K6LineRecords.Dropped d) {
                ensureStarted(d.sec() * 1_000_000L);
                lastUs = Math.max(lastUs, d.sec() * 1_000_000L);
                drops.computeIfAbsent(d.scenario(), s -> new TreeMap<>()).merge(d.sec(), d.count(), Long::sum);
                dropped += d.count();
            } else if (line instanceof K6LineRecords.Thresholds t) {
                config = t.config();
                for (String p : t.notJudged()) {
                    notJudged.add(p);
                    notes.accept("note: " + p);
                }
                if (started) {
                    out.accept(configMarker(lastUs));
                }
            } else if (line instanceof K6LineRecords.Unreadable u) {
                unreadable++;
                out.accept(new DeadLetter(options.series(), options.rep(), options.generator(), wallClockUs(),
                        origin + ":" + lineNo, Topic.SAMPLES.topicName(), "k6 output line " + lineNo + " "
                        + u.reason(), text));
            }
        }

        private void ensureStarted(long firstUs) {
            if (started) {
                return;
            }
            started = true;
            long ts = Math.max(1, firstUs - 2);
            out.accept(new Marker(options.series(), 0, options.generator(), ts, "sustained",
                    SeriesStart.imported(K6Import.SOURCE, origin, null)));
            out.accept(configMarker(ts));
            out.accept(new Marker(options.series(), options.rep(), options.generator(), ts + 1, "sustained",
                    RepeatStart.imported(K6Import.SOURCE, origin, null).closedByTime(options.lateness().toMillis())));
        }

        private Marker configMarker(long ts) {
            return new Marker(options.series(), 0, options.generator(), Math.max(1, ts), null, config);
        }

        void flush() {
            if (!pending.isEmpty()) {
                for (int from = 0; from < pending.size(); from += options.batchSize()) {
                    List<Sample> part = pending.subList(from, Math.min(pending.size(), from + options.batchSize()));
                    out.accept(new SampleBatch(options.series(), options.rep(), options.generator(),
                            part.get(part.size() - 1).t2(), part));
                }
                pending.clear();
            }
            for (var byScenario : drops.entrySet()) {
                for (var e : byScenario.getValue().entrySet()) {
                    long sec = e.getKey();
                    long n = e.getValue();
                    out.accept(new Ledger(options.series(), options.rep(), options.generator(), (sec + 1) * 1_000_000L,
                            byScenario.getKey(), sec, n, 0, n, 0, false));
                }
            }
            drops.clear();
        }

        void end(Ending ending) {
            flush();
            if (!started) {
                notes.accept(origin + ": no http_req_duration or dropped_iterations point read: nothing published");
                return;
            }
            // the thresholds as import k6 judges them (k6's aggregation over every point read)
            List<K6Threshold> verdicts = converter.verdicts().stream().map(K6Verdict::toWire).toList();
            out.accept(new Marker(options.series(), options.rep(), options.generator(), lastUs + 1, "sustained",
                    RepeatEnd.imported(publishedByScenario, ending.code(), lastUnreadable, unreadable, verdicts)));
            out.accept(new Marker(options.series(), 0, options.generator(), lastUs + 2, null, SeriesEnd.EMPTY));
        }

        Result result(Ending ending) {
            return new Result(lineNo, samples, dropped, unreadable, lastUnreadable, ending, notJudged);
        }
    }

    /** A dead letter's stamp: when it was found (a line that cannot be read has no time of its own). */
    private static long wallClockUs() {
        java.time.Instant now = java.time.Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }
}
