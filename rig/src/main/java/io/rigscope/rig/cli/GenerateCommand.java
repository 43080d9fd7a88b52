package io.rigscope.rig.cli;

import com.fasterxml.jackson.databind.SerializationFeature;
import io.rigscope.generator.Generator;
import io.rigscope.generator.GeneratorOptions;
import io.rigscope.generator.outbox.RecordSink;
import io.rigscope.generator.RunSummary;
import io.rigscope.generator.ScenarioSummary;
import io.rigscope.generator.outbox.SampleJournal;
import io.rigscope.generator.plan.BodyTemplate;
import io.rigscope.generator.plan.DefaultSizing;
import io.rigscope.generator.plan.LoadPlan;
import io.rigscope.generator.plan.LoopMode;
import io.rigscope.generator.plan.Scenario;
import io.rigscope.generator.schedule.Share;
import io.rigscope.localenv.kafka.KafkaEndpoint;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.model.topic.Topic;
import io.rigscope.model.wire.Marker;
import io.rigscope.model.wire.SeriesEnd;
import io.rigscope.model.wire.Verdict;
import io.rigscope.model.wire.VerdictFacts;
import io.rigscope.rig.options.Durations;
import io.rigscope.rig.options.ExitCodes;
import io.rigscope.rig.options.KafkaOptions;
import io.rigscope.rig.options.PgTarget;
import io.rigscope.rig.options.UsageException;
import io.rigscope.rig.reconciliation.Reconciliation;
import io.rigscope.rig.series.LiveAnalysis;
import io.rigscope.wire.WirePublisher;
import io.rigscope.wire.WireSource;
import io.rigscope.wire.kafka.TopicAdmin;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/** {@code rigscope generate}: offers load from a plan file or flags and publishes samples, ledger, health, markers. */
@Command(name = "generate", header = "Offer HTTP load (open loop by default) and publish samples, ledger, health, markers.",
        mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Offer HTTP load (open loop by default) from a YAML plan or from flags, and publish every "
            + "request's sample, the per-second ledger, the generator's health and start/end/config markers to Kafka.",
            "Prints one line per scenario and second, then a summary: what the schedule did (offered, sent, "
            + "dropped, completed, in flight, send lag). Latency, failures and claims come from the analyzer: "
            + "rigscope analyze --series ID --replay, which judges repeats (--rep N, N >= 1). See docs/generator.md."})
final class GenerateCommand implements Callable<Integer> {

    @Mixin
    KafkaOptions kafka = new KafkaOptions();

    @Option(names = "--config", paramLabel = "FILE", description = "The load plan (YAML). Flags below are then ignored, except --series/--rep/--src.")
    Path config;

    @Option(names = "--series", paramLabel = "ID", description = "Series id, the Kafka key (default: the plan's, else gen-<UTC time>).")
    String series;

    @Option(names = "--rep", paramLabel = "N", description = "Repeat number (default 0: a standalone series).")
    Integer rep;

    @Option(names = "--src", paramLabel = "ID", description = "This generator's id (default gen-1; gen-K with --share K/N).")
    String src;

    @Option(names = "--share", paramLabel = "K/N",
            description = {"Offer share K of N of the schedule: requests K-1, K-1+N, ... of every scenario, so N "
                + "generators with --share 1/N .. N/N (same series, repeat and plan) offer the whole rate between "
                + "them, each at 1/N of it. The analyzer waits for all N before it closes a second or judges the "
                + "repeat (docs/generator.md)."})
    String share;

    @Option(names = "--url", paramLabel = "URL", description = "Ingest URL, e.g. http://127.0.0.1:8080/v1/usage-events.")
    String url;

    @Option(names = "--method", defaultValue = "POST", description = "HTTP method (default ${DEFAULT-VALUE}).")
    String method;

    @Option(names = "--rate", paramLabel = "N", description = "Arrival rate (open loop), in --rate-unit.")
    Double rate;

    @Option(names = "--rate-unit", defaultValue = "requests/s", paramLabel = "UNIT",
            description = "requests/s or events/s (default ${DEFAULT-VALUE}).")
    String rateUnit;

    @Option(names = "--duration", defaultValue = "30s", description = "How long requests are started (default ${DEFAULT-VALUE}).")
    Duration duration;

    @Option(names = "--batch", defaultValue = "10", description = "Events per request (default ${DEFAULT-VALUE}); 0 sends no body.")
    int batch;

    @Option(names = "--meter", defaultValue = "api_calls", description = "Meter name (default ${DEFAULT-VALUE}).")
    String meter;

    @Option(names = "--customers", defaultValue = "cust-%d:1..1000",
            description = "Customer ids: a,b,c or PATTERN:FROM..TO (default ${DEFAULT-VALUE}).")
    String customers;

    @Option(names = "--quantity", defaultValue = "1..10", description = "Quantity per event, N or MIN..MAX (default ${DEFAULT-VALUE}).")
    String quantity;

    @Option(names = "--api-key", paramLabel = "KEY", description = "Sends Authorization: Bearer KEY.")
    String apiKey;

    @Option(names = "--header", paramLabel = "NAME:VALUE", description = "An extra request header (repeatable).")
    List<String> headers = new ArrayList<>();

    @Option(names = "--max-in-flight", paramLabel = "N",
            description = {"Open loop: concurrency cap (k6 maxVUs); a request due beyond it is dropped. Default: the "
                + "requests the scenario starts in 25 ms, at least 256 (500 at 20,000 req/s, 1,000 at 40,000)."})
    Integer maxInFlight;

    @Option(names = "--timeout", defaultValue = "10s", description = "Request timeout (default ${DEFAULT-VALUE}).")
    Duration timeout;

    @Option(names = "--probe-url", paramLabel = "URL", description = "Also run a GET read probe (its own scenario) at this URL.")
    String probeUrl;

    @Option(names = "--probe-rate", defaultValue = "2", description = "Read probe requests/s (default ${DEFAULT-VALUE}).")
    double probeRate;

    @Option(names = "--closed-loop", description = "Closed loop: --workers workers, each waits for its reply. Ceilings only.")
    boolean closedLoop;

    @Option(names = "--workers", defaultValue = "16", description = "Closed loop: workers (default ${DEFAULT-VALUE}).")
    int workers;

    @Option(names = "--io-threads", paramLabel = "N", description = {"HTTP client event loops. Default: one per 50,000 "
        + "req/s of the plan's rate (its scenarios' rates added, this generator's share of them), at most the cores; "
        + "closed loop, the cores."})
    Integer ioThreads;

    @Mixin
    ClientTuning client = new ClientTuning();

    @Option(names = "--last",
            description = {"With --rep N: N is the series' last repeat. After its end markers (and its "
                + "RECONCILIATION), publish SERIES_END (repeats N), so that an analyze following the series live "
                + "finishes by itself (with --share, the analyzer still waits for every share's last ledger)."})
    boolean last;

    @Option(names = "--pg", paramLabel = "URL",
            description = "With --reconciliation-sql: the database the service stores into, " + PgTarget.URL_FORM + ".")
    String pgUrl;

    @Option(names = "--reconciliation-sql", paramLabel = "SQL|@FILE",
            description = {"With --rep N and --pg: when the repeat ends, count what the database gained over its "
                + "window with this SQL (one row: rows_written, qty_sum_gained; parameters :window_start, "
                + ":window_end, :run, :rep; as the series file's reconciliation_sql) and publish it as the "
                + "repeat's RECONCILIATION marker, which the analyzer compares with its claims (docs/gates.md)."})
    String reconciliationSql;

    @Option(names = "--out", paramLabel = "FILE", description = "Also write every record to this JSONL wire file.")
    Path out;

    @Option(names = "--json", description = "Print the summary as JSON on stdout (second lines go to stderr).")
    boolean json;

    @Option(names = "--spool", paramLabel = "DIR",
            description = {"The write-ahead sample journal's directory (default: rigscope-journal in the temp directory). "
                + "Every sample batch is written there before it is sent to Kafka and the broker's acknowledgements are "
                + "marked in it, so a generator killed mid-run (SIGKILL) leaves there the samples that never reached "
                + "the broker; before it starts, generate publishes what an earlier run with the same --src left "
                + "there. On by default: it costs under 1 %% of the generator's CPU per request (docs/generator.md, "
                + "\"What a killed generator loses\")."})
    Path spool;

    @Option(names = "--no-spool", description = "No write-ahead sample journal (a kill then loses what was not acked).")
    boolean noSpool;

    @Option(names = "--recover", paramLabel = "DIR",
            description = {"Publish the samples every journal in DIR (--spool DIR of killed generators) holds beyond "
                + "the broker's last acknowledgement, delete the journals, and exit; no load is offered."})
    Path recover;

    @Override
    public Integer call() throws Exception {
        if (recover != null) {
            return recoverJournals(recover, null);
        }
        Share part;
        try {
            part = share == null ? Share.WHOLE : Share.parse(share);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--share: " + e.getMessage());
        }
        // a share's generator is gen-K unless named; alone, the plan file's or gen-1
        String generator = src == null && part.n() > 1 ? "gen-" + part.k() : src;
        LoadPlan plan = (config != null ? LoadPlanFile.read(config, series, rep, generator) : fromFlags(generator))
                .withShare(part);
        if ((last || reconciliationSql != null) && plan.rep() == 0) {
            throw new UsageException((last ? "--last" : "--reconciliation-sql") + " is for a repeat: give --rep N "
                    + "(N >= 1)");
        }
        if (reconciliationSql != null && part.n() > 1) {
            // each share would count the whole database over its own window: one count, not N, belongs to a repeat
            throw new UsageException("--reconciliation-sql with --share " + part + ": the generators of a shared "
                    + "schedule cannot each count the database; count once after they all ended (rescan's manifest "
                    + "database_gained, docs/rescan.md)");
        }
        if (pgUrl != null && reconciliationSql == null) {
            throw new UsageException("--pg is the database --reconciliation-sql counts in: give the SQL too");
        }
        Reconciliation.Repeat reconciliation = Reconciliation.Repeat.of("--pg", pgUrl, "--reconciliation-sql",
                reconciliationSql);
        PrintStream lines = json ? System.err : System.out;
        GeneratorOptions options = client.applyTo(GeneratorOptions.defaults()
                .withListener(r -> lines.println(r.line())));
        options = options.withIoThreads(ioThreads != null ? ioThreads
                : DefaultSizing.clientLoops(plan, Runtime.getRuntime().availableProcessors()));
        Path journal = noSpool ? null : spool != null ? spool
                : Path.of(System.getProperty("java.io.tmpdir"), "rigscope-journal");
        if (journal != null) {
            options = options.withJournalDir(journal);
        }
        WireCodec codec = new WireCodec();
        // SIGINT/SIGTERM: the schedule ends there, requests in flight end, and everything is published with the end
        // markers (REPEAT_END...), so an analyzer sees the generator end its part, not fall silent; the JVM exits
        // once that is done (at most a minute)
        Sinks.One<Generator.Stop> signalled = Sinks.one();
        CountDownLatch published = new CountDownLatch(1);
        Thread onSignal = new Thread(() -> {
            if (signalled.tryEmitValue(Generator.Stop.SIGNAL).isSuccess()) {
                System.err.println("generate: stopping on a signal: ending the schedule, publishing the end markers");
            }
            try {
                published.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "generate-stop");
        Runtime.getRuntime().addShutdownHook(onSignal);
        try {
            return generate(plan, part, options, codec, reconciliation, signalled.asMono());
        } finally {
            published.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(onSignal);
            } catch (IllegalStateException shuttingDown) {
                // a signal: the hook is running and waits for this
            }
        }
    }

    private int generate(LoadPlan plan, Share part, GeneratorOptions options, WireCodec codec,
                         Reconciliation.Repeat reconciliation, Mono<Generator.Stop> signalled) throws Exception {
        Path journal = options.journalDir();
        try (KafkaEndpoint endpoint = kafka.open(); TopicAdmin admin = new TopicAdmin(endpoint.clients())) {
            admin.ensureTopics();
            WirePublisher.Options po = WirePublisher.Options.defaults().withClientId(plan.src());
            if (out != null) {
                po = po.withOutFile(out);
            }
            try (WirePublisher publisher = new WirePublisher(endpoint.clients(), codec, po)) {
                if (journal != null) {
                    // what an earlier run of this generator left unacknowledged goes first
                    recovered(SampleJournal.recover(journal, plan.src(), SampleJournal.Destination.of(publisher), codec));
                }
                System.err.printf("generate: series %s rep %d src %s, %s, %d scenario(s), %s%s%n", plan.series(),
                        plan.rep(), plan.src(), plan.mode().label(), plan.scenarios().size(), plan.duration(),
                        part.n() > 1 ? ", share " + part + " of the schedule" : "");
                Map<String, String> urls = new LinkedHashMap<>();
                plan.scenarios().forEach(sc -> urls.put(sc.name(), sc.url().toString()));
                Instant windowStart = Instant.now();
                RunSummary summary = new Generator(new LiveAnalysis.FailureLines(RecordSink.of(publisher), urls, System.err),
                        options)
                        .run(plan, Mono.firstWithSignal(abortVerdict(endpoint, codec, plan), signalled))
                        .block(plan.duration().plusMinutes(10));
                Instant windowEnd = Instant.now().plusMillis(1);
                publisher.flush();
                if (reconciliation != null) {
                    reconciliation.publish(plan.series(), plan.rep(), plan.src(), plan.phase(), windowStart,
                            windowEnd, publisher::publish, System.err);
                }
                if (last) {
                    // after the repeat's own end markers and its count (same key, so the same partition, in order)
                    publisher.publish(new Marker(plan.series(), 0, plan.src(), Math.max(1,
                            System.currentTimeMillis() * 1_000L), null, SeriesEnd.ofRepeats(plan.rep())));
                    System.err.printf("generate: published SERIES_END of %s (repeats %d)%n", plan.series(),
                            plan.rep());
                }
                publisher.flush();
                if (publisher.failed() > 0) {
                    throw new IllegalStateException(publisher.failed() + " record(s) failed to publish: "
                            + publisher.lastError());
                }
                if (json) {
                    Map<String, Object> m = new LinkedHashMap<>(summary.toMap());
                    m.put("records_acked", publisher.acked());
                    m.put("figures", figuresPointer(summary));
                    System.out.println(codec.json().copy().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(m));
                } else {
                    printSummary(summary, publisher.acked());
                }
                return ExitCodes.OK;
            }
        }
    }

    /** {@code --recover DIR}: publishes what the journals in DIR hold beyond their acknowledgements. */
    private int recoverJournals(Path dir, String src) {
        if (!java.nio.file.Files.isDirectory(dir)) {
            throw new UsageException("--recover " + dir + " is not a directory");
        }
        WireCodec codec = new WireCodec();
        try (KafkaEndpoint endpoint = kafka.open(); TopicAdmin admin = new TopicAdmin(endpoint.clients())) {
            admin.ensureTopics();
            try (WirePublisher publisher = new WirePublisher(endpoint.clients(), codec,
                    WirePublisher.Options.defaults().withClientId("rigscope-recover"))) {
                List<SampleJournal.Recovered> done = SampleJournal.recover(dir, src,
                        SampleJournal.Destination.of(publisher), codec);
                publisher.flush();
                recovered(done);
                if (done.isEmpty()) {
                    System.err.println("generate: no sample journal to recover in " + dir);
                }
                if (done.stream().anyMatch(r -> !r.complete())) {
                    return ExitCodes.ERROR; // each kept journal has its line
                }
                return ExitCodes.OK;
            }
        }
    }

    private static void recovered(List<SampleJournal.Recovered> done) {
        for (SampleJournal.Recovered r : done) {
            if (!r.complete()) {
                System.err.printf(Locale.ROOT, "generate: kept the journal %s: %d of %d record(s) not published "
                        + "(%s); 'rigscope recover' publishes them%n", r.file(), r.failed(), r.entries(), r.error());
                continue;
            }
            System.err.printf(Locale.ROOT, "generate: recovered %s: %d batch(es), %d acknowledged before, %d "
                    + "published now (%d samples)%s%n", r.file().getFileName(), r.entries(), r.acknowledged(),
                    r.published(), r.samples(), r.truncatedTail() ? "; its last entry was cut short by the kill "
                            + "and is left out" : "");
        }
    }

    /**
     * A repeat's load stops on the analyzer's ABORT verdict for it (a threshold with abortOnFail failed, judged by an
     * {@code analyze} following the series: docs/gates.md): read from {@code rig.verdicts} while the run lasts,
     * every ABORT of the series and repeat decided since the command started. A standalone series (rep 0) has no
     * repeat to stop.
     */
    private static Mono<Generator.Stop> abortVerdict(KafkaEndpoint endpoint, WireCodec codec, LoadPlan plan) {
        if (plan.rep() == 0) {
            return Mono.never();
        }
        // From a minute before now by the broker's clock (its host's may be behind this one's), so that a consumer
        // that takes its time to start misses nothing; an older run's stop of the same series and repeat is left by
        // its event time, which this run's clock sets (a verdict's ts is the end of one of this run's seconds).
        long nowUs = System.currentTimeMillis() * 1_000L;
        return new WireSource(endpoint.clients(), codec)
                .records(new WireSource.Spec(Set.of(Topic.VERDICTS), plan.series(), false, true,
                        nowUs / 1_000L - 60_000L), f -> { })
                .filter(r -> r instanceof Verdict v && v.kind() == Verdict.Kind.ABORT && v.rep() == plan.rep()
                        && v.ts() >= nowUs)
                .next()
                .map(r -> {
                    // an ABORT's facts are always an Abort; they become the REPEAT_END's `stopped`
                    VerdictFacts.Abort a = (VerdictFacts.Abort) ((Verdict) r).facts();
                    System.err.printf("generate: repeat %d stopped by the analyzer's abortOnFail: %s measured %s "
                            + "(limit %s)%n", plan.rep(), a.threshold(), a.value(), a.limit());
                    return Generator.Stop.because(a);
                });
    }

    private static void printSummary(RunSummary s, long acked) {
        System.out.printf(Locale.ROOT, "%n%s summary (%s, %.1f s)%n", s.mode().label(), s.series(), s.elapsed().toMillis() / 1000.0);
        for (ScenarioSummary c : s.scenarios()) {
            System.out.printf(Locale.ROOT, "  %-10s scheduled %d  sent %d  dropped %d  completed %d  failed %d %s%n",
                    c.name(), c.scheduled(), c.sent(), c.dropped(), c.completed(), c.failed(), errors(c));
            System.out.printf(Locale.ROOT, "  %-10s send lag (t1 - t0) p50 %.3f ms  p99 %.3f ms  max %.3f ms%n",
                    "", c.lagP50Ms(), c.lagP99Ms(), c.lagMaxMs());
        }
        System.out.printf(Locale.ROOT, "  records: produced %d  published %d  acked %d  (%d samples; %d via spool)  cpu %.0f %%%n",
                s.recordsProduced(), s.recordsPublished(), acked, s.samplesPublished(), s.recordsSpooled(), s.processCpuPct());
        if (s.mode() == LoopMode.CLOSED) {
            System.out.println("  closed-loop: a ceiling, not a service level (latencies hide stalls)");
        }
        System.out.println("  " + figuresPointer(s));
    }

    /**
     * Where the figures the generator does not keep come from: the analyzer, from the published samples. The run
     * has ended, so {@code --replay} (a live analysis waits for SERIES_END, which only {@code --last} publishes). The
     * analyzer judges repeats only: a rep-0 run's samples are outside every repeat, so it has no figures for them.
     */
    private static String figuresPointer(RunSummary s) {
        String analyze = "latency, failures and claims: rigscope analyze --series " + s.series() + " --replay";
        return s.rep() > 0 ? analyze : analyze + " (it reports them per repeat: run with --rep N, N >= 1)";
    }

    private static String errors(ScenarioSummary c) {
        StringBuilder b = new StringBuilder();
        c.errors().forEach((kind, n) -> b.append(b.length() == 0 ? "(" : ", ").append(kind.code()).append(' ').append(n));
        return b.length() == 0 ? "" : b.append(')').toString();
    }

    private LoadPlan fromFlags(String generator) {
        if (url == null) {
            throw new UsageException("give --config FILE or at least --url URL and --rate N");
        }
        if (rate == null && !closedLoop) {
            throw new UsageException("--rate is required in open loop");
        }
        Duration d = Durations.positive("--duration", duration);
        Duration t = Durations.positive("--timeout", timeout);
        Map<String, String> h = new LinkedHashMap<>();
        if (apiKey != null) {
            h.put("Authorization", "Bearer " + apiKey);
        }
        for (String header : headers) {
            int colon = header.indexOf(':');
            if (colon <= 0) {
                throw new UsageException("--header '" + header + "' is not NAME:VALUE");
            }
            h.put(header.substring(0, colon).strip(), header.substring(colon + 1).strip());
        }
        try {
            BodyTemplate body = batch == 0 ? null : new BodyTemplate(batch, LoadPlanFile.customers(customers), meter,
                    quantityMin(), quantityMax(), Map.of(), null, null);
            double requestsPerSec = rate == null ? 1 : switch (rateUnit) {
                case "requests/s" -> rate;
                case "events/s" -> {
                    if (body == null) {
                        throw new UsageException("--rate-unit events/s needs --batch >= 1");
                    }
                    yield Scenario.requestsPerSecForEvents(rate, batch);
                }
                default -> throw new UsageException("--rate-unit '" + rateUnit + "' is not requests/s or events/s");
            };
            List<Scenario> scenarios = new ArrayList<>();
            scenarios.add(new Scenario("ingest", method, URI.create(url), h, requestsPerSec,
                    closedLoop ? workers : maxInFlight != null ? maxInFlight : DefaultSizing.maxInFlight(requestsPerSec),
                    t, body));
            if (probeUrl != null) {
                scenarios.add(new Scenario("probe", "GET", URI.create(probeUrl), h, probeRate, closedLoop ? 1 : 16, t, null));
            }
            return new LoadPlan(series == null ? LoadPlanFile.defaultSeries() : series, rep == null ? 0 : rep,
                    generator == null ? "gen-1" : generator, null, closedLoop ? LoopMode.CLOSED : LoopMode.OPEN, d, scenarios, null);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }

    private long quantityMin() {
        return parseQuantity()[0];
    }

    private long quantityMax() {
        return parseQuantity()[1];
    }

    private long[] parseQuantity() {
        try {
            String[] parts = quantity.split("\\.\\.");
            long min = Long.parseLong(parts[0].strip());
            long max = parts.length > 1 ? Long.parseLong(parts[1].strip()) : min;
            return new long[] {min, max};
        } catch (NumberFormatException e) {
            throw new UsageException("--quantity '" + quantity + "' is not N or MIN..MAX");
        }
    }
}
