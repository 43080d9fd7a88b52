package io.rigscope.rig.cli;

import com.fasterxml.jackson.databind.SerializationFeature;
import io.rigscope.generator.GeneratorOptions;
import io.rigscope.generator.bench.BenchResult;
import io.rigscope.generator.bench.BenchServer;
import io.rigscope.generator.bench.GeneratorBench;
import io.rigscope.generator.http.ClientLoops;
import io.rigscope.generator.bench.TimerJitter;
import io.rigscope.generator.bench.Wrk;
import io.rigscope.generator.plan.ResponseCheck;
import io.rigscope.rig.bench.PeerBench;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.rig.options.Durations;
import io.rigscope.rig.options.ExitCodes;
import io.rigscope.rig.options.KafkaOptions;
import io.rigscope.rig.options.UsageException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code rigscope bench generator}: how faithfully the open-loop generator keeps its schedule against a minimal
 * keep-alive server in this JVM, and (with {@code --vs-wrk}) how its highest drop-free rate compares with wrk's
 * closed-loop maximum against the same server; with {@code --vs-peers}, how it compares with Hyperfoil, Gatling and
 * wrk, each in a JVM of its own against one server ({@link PeerBench}).
 */
@Command(name = "generator", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Offer --rate req/s open-loop to a minimal Reactor Netty keep-alive server in this JVM and "
            + "print target_rate, offered_rate, sent, dropped, lag_p50/p99/max_ms (lag = t1 - t0), cpu_pct, "
            + "cpu_us_per_request (the process's CPU, less the bench server's, / requests completed) and "
            + "generator_threads_cpu_us_per_request (the rig-gen-* threads' part); service_p50/p99_ms "
            + "(t2 - t1) are the bench's own, from the samples the run published (the generator keeps no latency).",
            "--vs-wrk also runs wrk (closed loop) against the same server and searches the highest open-loop "
            + "rate that holds (0 drops, 0 failures, offered within --tolerance); it prints wrk_cpu_us_per_request "
            + "(wrk's own CPU / its requests) and cpu_per_request_vs_wrk. --target URL offers the load to a "
            + "server elsewhere (e.g. 'rigscope bench server' in another process) instead.",
            "--vs-peers instead runs one bench server in a JVM of its own and rigscope, Hyperfoil and Gatling (each in "
            + "a JVM of its own) up the same --ladder, open loop, then wrk closed loop, each tool twice (its defaults, its "
            + "best settings; --peer-rows); per tool and row the highest rate held, CPU per request, its own latency "
            + "figures, settings and version (docs/generator.md, 'Side by side with peers').",
            "--check KIND measures the cost of a response check: the measured run is made without and with it "
            + "(--check-pairs times, alternating) and the figures of both and their ratios (with / without, the median over the pairs) are printed."})
final class BenchGeneratorCommand implements Callable<Integer> {

    @Mixin
    KafkaOptions kafka = new KafkaOptions();

    @Option(names = "--rate", defaultValue = "20000", description = "Target requests/s (default ${DEFAULT-VALUE}).")
    double rate;

    @Option(names = "--duration", defaultValue = "30s", description = "Measured run length (default ${DEFAULT-VALUE}).")
    Duration duration;

    @Option(names = "--warmup", defaultValue = "15s", description = "Unmeasured warm-up at the same rate first (default ${DEFAULT-VALUE}; 0s for none).")
    Duration warmup;

    @Option(names = "--warmup-runs", defaultValue = "3", description = "The warm-up is this many runs, each a share of --warmup (default ${DEFAULT-VALUE}): the code "
        + "that opens, first uses and closes connections runs once per connection per run, so it is compiled only after a few runs.")
    int warmupRuns;

    @Option(names = "--json", description = "Print the figures as JSON.")
    boolean json;

    @Option(names = "--vs-wrk", description = "Also run wrk against the same server and search the highest open-loop rate that holds.")
    boolean vsWrk;

    @Option(names = "--max-in-flight", defaultValue = "1000", description = "The generator's in-flight cap (default ${DEFAULT-VALUE}).")
    int maxInFlight;

    @Option(names = "--io-threads", defaultValue = "1", description = "The generator's client event loops (default ${DEFAULT-VALUE}).")
    int ioThreads;

    @Option(names = "--server-threads", description = {"The bench server's event loops (default: 1 for a run in this "
        + "JVM, where the generator shares the CPUs; with --vs-peers one per CPU, so that the server, in a JVM of its "
        + "own, is not what fails a tool's step)."})
    Integer serverThreadsOption;

    /** {@code --server-threads} for a run in this JVM. */
    int serverThreads() {
        return serverThreadsOption != null ? serverThreadsOption : 1;
    }

    @Option(names = "--target", paramLabel = "URL", description = {"Offer the load to this server (e.g. one started with 'rigscope bench server' in "
        + "another process or on another machine) instead of starting one in this JVM; --vs-wrk runs wrk against it too."})
    String target;

    @Option(names = "--min-wake-gap-us", defaultValue = "50", description = "Least gap between two scheduler wakes, µs (default ${DEFAULT-VALUE}; 0: a wake per request).")
    long minWakeGapUs;

    @Mixin
    ClientTuning client = new ClientTuning();

    @Option(names = "--kafka", description = {"Publish the records through Kafka (embedded broker unless --bootstrap) "
        + "as run does, with the write-ahead sample journal on in <data-dir>/journal, instead of counting them; "
        + "then --kafka-pairs pairs of runs without Kafka (counting sink, no journal) and with, and the ratios."})
    boolean throughKafka;

    @Option(names = "--kafka-pairs", defaultValue = "1", description = "--kafka: how many without/with pairs of measured runs (default ${DEFAULT-VALUE}; the first 'with' is the measured run).")
    int kafkaPairs;

    @Option(names = "--step-duration", defaultValue = "10s", description = "--vs-wrk: wrk's run and each search step (default ${DEFAULT-VALUE}).")
    Duration stepDuration;

    @Option(names = "--search-steps", defaultValue = "6", description = "--vs-wrk: bisection steps (default ${DEFAULT-VALUE}).")
    int searchSteps;

    @Option(names = "--wrk-threads", defaultValue = "1", description = "--vs-wrk: wrk -t (default ${DEFAULT-VALUE}).")
    int wrkThreads;

    @Option(names = "--wrk-connections", defaultValue = "64", description = "--vs-wrk: wrk -c (default ${DEFAULT-VALUE}).")
    int wrkConnections;

    @Option(names = "--check", paramLabel = "KIND", description = {"Also measure with a response check on every response: "
        + "body_not_contains ('errors'), body_contains ('ok'), json ($.ok exists; needs --response-bytes >= 9) or status ([200]). "
        + "The measured run is made without and with it, and the ratios are printed."})
    String check;

    @Option(names = "--check-pairs", defaultValue = "1", description = "--check: how many without/with pairs of measured runs (default ${DEFAULT-VALUE}).")
    int checkPairs;

    @Option(names = "--server-timing-pairs", defaultValue = "0", description = {"Also measure what reading the "
        + "Server-Timing header costs: the bench server answers with the reference SUT's header "
        + "(" + BenchServer.SUT_SERVER_TIMING + ") and this many pairs of measured runs are made with the header ignored, "
        + "then read onto every sample; the ratios are printed (default ${DEFAULT-VALUE}: not measured)."})
    int serverTimingPairs;

    @Option(names = "--spool-pairs", paramLabel = "N", defaultValue = "0",
            description = {"Also measure the write-ahead sample journal (generate --spool): N pairs of measured runs "
                + "without and with it, alternating, and the ratios with / without (the median over the pairs) "
                + "(default ${DEFAULT-VALUE}: not measured)."})
    int spoolPairs;

    @Option(names = "--response-bytes", defaultValue = "2", description = "Body size of the bench server's answers: 2 is 'ok', 9 or more "
        + "a JSON object {\"ok\":\"xx..\"} (default ${DEFAULT-VALUE}; ignored with --target).")
    int responseBytes;

    @Option(names = "--tolerance", defaultValue = "0.005", description = "Offered-rate tolerance for 'holds' (default ${DEFAULT-VALUE} = 0.5 %%).")
    double tolerance;

    @Option(names = "--jitter-duration", defaultValue = "5s", description = {"First measure the host's own timer "
        + "jitter this long: a thread that only sleeps to a 50 µs schedule, its lateness p50/p99/max printed beside "
        + "the send lag, with whether the host allows the lag goal (p99 <= " + LAG_GOAL_MS + " ms). Default "
        + "${DEFAULT-VALUE}; 0s: not measured."})
    Duration jitterDuration;

    @Option(names = "--vs-peers", description = {"Instead of one run: a bench server in a JVM of its own, then rigscope, "
        + "Hyperfoil and Gatling (each in a JVM of its own, --peer-jvm-options) up the same --ladder of rates, open "
        + "loop, --step-duration a step, and wrk (closed loop) as the ceiling; each tool once with its own defaults and "
        + "once with its best settings (--peer-rows). A step holds when the server counted the offered rate within "
        + "--tolerance over the whole step, with no drop and no error. Prints, per tool and row, the highest rate held, "
        + "the CPU per request (its process's CPU / the requests the server counted), its own latency figures, the "
        + "settings and version; a tool that cannot be had is skipped with the reason."})
    boolean vsPeers;

    /** The --vs-peers options (--ladder, --peer-*, --peers-dir). */
    @Mixin
    BenchVsPeers peers = new BenchVsPeers();

    @Option(names = "--wrk", paramLabel = "PATH", description = "The wrk to run (default: wrk on the PATH).")
    Path wrkPath;

    /** The send-lag goal the timer jitter is held against: lag p99 at or under this, ms. */
    static final double LAG_GOAL_MS = LagGoal.GOAL_MS;

    @Override
    public Integer call() throws Exception {
        Duration jitterLength = jitterDuration;
        if (vsPeers) {
            return peers.run(this, jitterLength);
        }
        if (!(rate > 0)) {
            throw new UsageException("--rate must be > 0, was " + rate);
        }
        Duration measured = Durations.positive("--duration", duration);
        Duration warm = warmup;
        Duration step = Durations.positive("--step-duration", stepDuration);
        if (warmupRuns < 1) {
            throw new UsageException("--warmup-runs must be >= 1, was " + warmupRuns);
        }
        if (serverThreads() < 1) {
            throw new UsageException("--server-threads must be >= 1, was " + serverThreads());
        }
        if (minWakeGapUs < 0) {
            throw new UsageException("--min-wake-gap-us must be >= 0, was " + minWakeGapUs);
        }
        ResponseCheck responseCheck = check == null ? null : benchCheck(check);
        if ("json".equals(check) && target == null && responseBytes < BenchServer.MIN_JSON_BYTES) {
            throw new UsageException("--check json needs a JSON answer: --response-bytes " + BenchServer.MIN_JSON_BYTES + " or more");
        }
        if (kafkaPairs < 0) {
            throw new UsageException("--kafka-pairs must be >= 0, was " + kafkaPairs);
        }
        if (checkPairs < 1) {
            throw new UsageException("--check-pairs must be >= 1, was " + checkPairs);
        }
        if (responseBytes != 2 && responseBytes < BenchServer.MIN_JSON_BYTES) {
            throw new UsageException("--response-bytes must be 2 or >= " + BenchServer.MIN_JSON_BYTES + ", was " + responseBytes);
        }
        GeneratorOptions baseOptions = client.applyTo(GeneratorOptions.defaults().withIoThreads(ioThreads)
                        .withMinWakeGapNanos(minWakeGapUs * 1000))
                .withListener(r -> System.err.println(r.line()));
        Optional<Wrk> wrk = vsWrk ? findWrk() : Optional.empty();
        if (vsWrk && wrk.isEmpty()) {
            System.err.println("bench: " + wrkMissing() + "; running without --vs-wrk");
        }
        Map<String, Object> out = new LinkedHashMap<>();
        URI external = target == null ? null : targetUri(target);
        if (serverTimingPairs < 0) {
            throw new UsageException("--server-timing-pairs must be >= 0, was " + serverTimingPairs);
        }
        // the client loops every run of this command uses (warm-up, measured, pairs, search), closed at its end
        try (ClientLoops loops = ClientLoops.open(ioThreads);
             BenchServer server = external == null ? new BenchServer("127.0.0.1", 0, serverThreads(), responseBytes,
                serverTimingPairs > 0 ? BenchServer.SUT_SERVER_TIMING : null) : null;
             BenchPublishing publishing = new BenchPublishing(throughKafka, kafka)) {
            GeneratorOptions options = baseOptions.withClientLoops(loops);
            // --kafka: the write-ahead sample journal on, where run keeps it, each batch marked when the broker acked it
            GeneratorOptions mainOptions = throughKafka ? options.withJournalDir(publishing.journalDir()) : options;
            GeneratorBench bench = benchOf(server, external, publishing.sink(), mainOptions);
            // --kafka's runs without Kafka: the counting sink, no journal
            GeneratorBench counting = throughKafka ? benchOf(server, external, publishing.countingSink(), options) : null;
            String url = server != null ? server.url() : external.toString();
            TimerJitter jitter = null;
            if (!jitterLength.isZero()) {
                Duration period = jitterPeriod();
                System.err.printf(Locale.ROOT, "bench: the host's timer jitter: a thread sleeping to a %.0f µs schedule for %d s%n",
                        period.toNanos() / 1000.0, jitterLength.toSeconds());
                jitter = TimerJitter.measure(jitterLength, period);
            }
            if (!warm.isZero()) {
                Duration each = warm.dividedBy(warmupRuns);
                for (int i = 1; i <= warmupRuns; i++) {
                    // with --check, every other warm-up run checks, so both paths are compiled before measuring
                    ResponseCheck warmCheck = responseCheck != null && i % 2 == 0 ? responseCheck : null;
                    System.err.printf("bench: warm-up %d/%d, %s at %.0f req/s%s (not measured)%n", i, warmupRuns, each, rate,
                            warmCheck == null ? "" : " with --check " + check);
                    // with --kafka-pairs, every other warm-up run is without Kafka: the JIT compiles both paths first
                    (counting != null && kafkaPairs > 0 && i % 2 == 0 ? counting : bench).run(rate, each, warmCheck);
                }
            }
            publishing.records.set(0);
            publishing.samples.set(0);
            publishing.worstPauseUs.set(0);
            publishing.worstLoopLagUs.set(0);
            System.err.printf("bench: measuring %s at %.0f req/s against %s%n", measured, rate, url);
            // the same kind of probe beside the measured run, at a period that costs it little
            TimerJitter.Running duringRun = jitter != null ? TimerJitter.start(TimerJitter.BESIDE_LOAD_PERIOD) : null;
            TimerJitter duringRunJitter = null;
            BenchResult main;
            long schedulerWakesBefore = loops.schedulerWakes();
            long sleepsBefore = loops.sleeps();
            long schedulerWakes;
            long loopWakes;
            try {
                main = bench.run(rate, measured);
            } finally {
                schedulerWakes = loops.schedulerWakes() - schedulerWakesBefore;
                loopWakes = loops.sleeps() - sleepsBefore;
                if (duringRun != null) {
                    duringRunJitter = duringRun.stop();
                }
            }
            List<BenchResult[]> pairs = new ArrayList<>();
            if (responseCheck != null) {
                for (int p = 0; p < checkPairs; p++) {
                    BenchResult without = p == 0 ? main : bench.run(rate, measured);
                    System.err.printf("bench: measuring %s at %.0f req/s with --check %s%n", measured, rate, check);
                    pairs.add(new BenchResult[] {without, bench.run(rate, measured, responseCheck)});
                }
            }
            List<BenchResult[]> timingPairs = new ArrayList<>();
            if (serverTimingPairs > 0) {
                GeneratorBench ignoring = benchOf(server, external, publishing.sink(), mainOptions.withServerTiming(false));
                for (int p = 0; p < serverTimingPairs; p++) {
                    System.err.printf("bench: measuring %s at %.0f req/s with Server-Timing ignored, then read (pair %d/%d)%n",
                            measured, rate, p + 1, serverTimingPairs);
                    BenchResult without = ignoring.run(rate, measured);
                    timingPairs.add(new BenchResult[] {without, bench.run(rate, measured)});
                }
            }
            List<BenchResult[]> spooled = new ArrayList<>();
            if (spoolPairs > 0) {
                Path journalDir = Files.createTempDirectory("rigscope-bench-journal");
                GeneratorBench withJournal = benchOf(server, external, publishing.sink(), options.withJournalDir(journalDir));
                GeneratorBench withoutJournal = throughKafka ? benchOf(server, external, publishing.sink(), options) : bench;
                for (int p = 0; p < spoolPairs; p++) {
                    BenchResult without = p == 0 && !throughKafka ? main : withoutJournal.run(rate, measured);
                    System.err.printf("bench: measuring %s at %.0f req/s with the sample journal (--spool %s)%n",
                            measured, rate, journalDir);
                    spooled.add(new BenchResult[] {without, withJournal.run(rate, measured)});
                }
            }
            List<BenchResult[]> kafkaRuns = new ArrayList<>();
            if (throughKafka) {
                for (int p = 0; p < kafkaPairs; p++) {
                    System.err.printf("bench: measuring %s at %.0f req/s without Kafka (counting sink, no journal), "
                            + "pair %d/%d%n", measured, rate, p + 1, kafkaPairs);
                    BenchResult without = counting.run(rate, measured);
                    kafkaRuns.add(new BenchResult[] {without, p == 0 ? main : bench.run(rate, measured)});
                }
            }
            out.putAll(main.toMap());
            out.put("holds", main.held(tolerance));
            out.put("wake_policy", options.maxSendLagNanos() == 0 ? "precise" : "adaptive");
            out.put("max_send_lag_us", options.maxSendLagNanos() / 1000);
            // the run includes the generator's own warm-up only on the loops' first run, which the warm-up runs took
            out.put("scheduler_wakes_per_request", main.sent() == 0 ? null : BenchPairs.round3((double) schedulerWakes / main.sent()));
            out.put("loop_wakes_per_request", main.sent() == 0 ? null : BenchPairs.round3((double) loopWakes / main.sent()));
            if (jitter != null) {
                out.put("timer_jitter", jitter.toMap());
                out.put("timer_jitter_during_run", duringRunJitter.toMap());
                Map<String, Object> goal = LagGoal.of(main.lagP99Ms(), jitter, duringRunJitter, main.dropped());
                out.put("lag_goal", goal);
                System.err.println("bench: " + goal.get("verdict"));
            }
            out.put("duration_s", measured.toSeconds());
            out.put("jvm_pause_max_ms", publishing.worstPauseUs.get() / 1000.0);
            out.put("loop_lag_max_ms", publishing.worstLoopLagUs.get() / 1000.0);
            out.put("records_published", publishing.records.get());
            out.put("samples_published", publishing.samples.get());
            out.put("records_to", throughKafka ? "kafka" : "counting sink (use --kafka for the broker path)");
            out.put("io_threads", ioThreads);
            out.put("min_wake_gap_us", minWakeGapUs);
            out.put("busy_poll", client.busyPoll);
            out.put("poll_us", client.pollUs);
            out.put("warmup_s", warm.toMillis() / 1000.0);
            out.put("warmup_runs", warmupRuns);
            out.put("preconnect_ms", client.preconnectMs);
            if (server != null) {
                out.put("server", "in this JVM");
                out.put("server_threads", serverThreads());
            } else {
                out.put("server", url);
            }
            out.put("cores", Runtime.getRuntime().availableProcessors());
            out.put("load_avg_1m", java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
            if (responseCheck != null) {
                out.put("check", checkFigures(responseCheck, pairs));
            }
            if (!timingPairs.isEmpty()) {
                out.put("server_timing", timingFigures(timingPairs));
            }
            if (!spooled.isEmpty()) {
                out.put("spool", spoolFigures(spooled));
            }
            if (throughKafka) {
                out.put("journal_dir", publishing.journalDir().toString());
            }
            if (!kafkaRuns.isEmpty()) {
                out.put("kafka", BenchPairs.figures(kafkaRuns, "without_kafka", "with_kafka_and_journal",
                        "ratio_with_over_without", true, tolerance));
            }
            if (vsWrk) {
                out.put("wrk", wrk.map(Object::toString).orElse("not installed"));
            }
            if (wrk.isPresent()) {
                System.err.printf("bench: wrk -t%d -c%d -d%ds %s%n", wrkThreads, wrkConnections, step.toSeconds(), url);
                Wrk.Result wrkRun = wrk.get().run(url, wrkThreads, wrkConnections, step);
                double wrkMax = wrkRun.requestsPerSec();
                System.err.printf("bench: wrk max %.0f req/s; searching the highest open-loop rate that holds%n", wrkMax);
                List<Map<String, Object>> steps = new ArrayList<>();
                double best = BenchSearch.search(bench, wrkMax, step, searchSteps, tolerance, steps);
                out.put("wrk_max_rps", BenchResultRound.round(wrkMax));
                out.put("wrk_threads", wrkThreads);
                out.put("wrk_connections", wrkConnections);
                out.put("wrk_cpu_us_per_request", round2(wrkRun.cpuUsPerRequest()));
                out.put("cpu_per_request_vs_wrk", round2(main.cpuUsPerRequest() / wrkRun.cpuUsPerRequest()));
                out.put("max_open_loop_rps", BenchResultRound.round(best));
                out.put("max_open_loop_over_wrk", Math.round(1000.0 * best / wrkMax) / 1000.0);
                out.put("search_steps", steps);
            }
        }
        if (json) {
            System.out.println(new WireCodec().json().copy().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(out));
        } else {
            out.forEach((k, v) -> System.out.printf(Locale.ROOT, "%-24s %s%n", k, v));
        }
        return ExitCodes.OK;
    }

    /** A bench of the generator with {@code opts} against the server in this JVM, or the --target. */
    private GeneratorBench benchOf(BenchServer server, URI external, io.rigscope.generator.outbox.RecordSink sink,
                                   GeneratorOptions opts) {
        return server != null ? new GeneratorBench(server, sink, opts, maxInFlight)
                : new GeneratorBench(external, null, sink, opts, maxInFlight);
    }

    /** The timer-jitter probe's period: the generator's wake gap at this rate (one request's interval, at least --min-wake-gap-us). */
    private Duration jitterPeriod() {
        long intervalNanos = (long) (1e9 / rate);
        return Duration.ofNanos(Math.max(Math.max(intervalNanos, minWakeGapUs * 1000), 10_000));
    }

    /** wrk: --wrk PATH, or the one on the PATH. */
    Optional<Wrk> findWrk() {
        return wrkPath != null ? Wrk.at(wrkPath) : Wrk.find();
    }

    /** Why {@link #findWrk()} found none. */
    String wrkMissing() {
        return wrkPath != null ? "wrk: --wrk " + wrkPath + " is not an executable file"
                : "wrk is not installed (Debian: apt-get install wrk)";
    }

    /** The response check {@code --check KIND} names. */
    static ResponseCheck benchCheck(String kind) {
        return switch (kind) {
            case "body_not_contains" -> new ResponseCheck(null, null, "errors", null);
            case "body_contains" -> new ResponseCheck(null, "ok", null, null);
            case "json" -> new ResponseCheck(null, null, null, new ResponseCheck.JsonCheck("$.ok", true, null));
            case "status" -> new ResponseCheck(List.of(200), null, null, null);
            default -> throw new UsageException("--check '" + kind + "' is not body_not_contains, body_contains, json or status");
        };
    }

    /**
     * {@code --check}'s figures: the check, every pair's runs (without, with) and the ratios with / without (the
     * median over the pairs): CPU per request (all, user), send lag p99, service p50 and p99.
     */
    private Map<String, Object> checkFigures(ResponseCheck responseCheck, List<BenchResult[]> pairs) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("kind", check);
        m.put("check", responseCheck.toMap());
        m.put("response_bytes", target == null ? responseBytes : null);
        m.putAll(BenchPairs.figures(pairs, "without", "with", "ratio_with_over_without", true, tolerance));
        return m;
    }

    /** {@code --server-timing-pairs}' figures: the header, every pair (ignored, read) and the ratios read / ignored. */
    private Map<String, Object> timingFigures(List<BenchResult[]> pairs) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("header", BenchServer.SUT_SERVER_TIMING);
        m.putAll(BenchPairs.figures(pairs, "ignored", "read", "ratio_read_over_ignored", true, tolerance));
        return m;
    }

    /** {@code --spool-pairs}' figures: every pair's runs (without, with the journal) and the ratios with / without. */
    private Map<String, Object> spoolFigures(List<BenchResult[]> pairs) {
        return BenchPairs.figures(pairs, "without", "with", "ratio_with_over_without", false, tolerance);
    }

    /** {@code --target}: an http:// URL with a host. */
    static URI targetUri(String value) {
        URI uri;
        try {
            uri = new URI(value);
        } catch (URISyntaxException e) {
            throw new UsageException("--target '" + value + "' is not a URL: " + e.getMessage());
        }
        if (!"http".equalsIgnoreCase(uri.getScheme()) || uri.getHost() == null) {
            throw new UsageException("--target '" + value + "' must be an http:// URL with a host, e.g. http://127.0.0.1:8080/");
        }
        return uri.getRawPath() == null || uri.getRawPath().isEmpty() ? uri.resolve("/") : uri;
    }

    /** Two decimals, or null (JSON null) for NaN. */
    private static Double round2(double v) {
        return Double.isNaN(v) || Double.isInfinite(v) ? null : Math.round(v * 100) / 100.0;
    }

    /** Rounding for printed rates. */
    private static final class BenchResultRound {
        static double round(double v) {
            return Math.round(v * 10) / 10.0;
        }
    }
}
