package io.rigscope.rig.sutproc;

import io.rigscope.pg.PgUrl;
import io.rigscope.localenv.childjvm.ChildJvm;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import io.rigscope.rig.series.SeriesPlan;
import io.rigscope.rig.series.SeriesRunner;
import io.rigscope.generator.Generator;
import io.rigscope.generator.GeneratorOptions;
import io.rigscope.generator.http.ClientLoops;
import io.rigscope.generator.outbox.RecordSink;
import io.rigscope.generator.RunSummary;
import io.rigscope.generator.ScenarioSummary;
import io.rigscope.generator.plan.LoadPlan;
import io.rigscope.generator.plan.LoopMode;
import io.rigscope.model.wire.LatencySettings;
import io.rigscope.model.wire.Sample;
import io.rigscope.model.wire.SampleBatch;
import io.rigscope.model.wire.WireRecord;
import java.io.PrintStream;
import java.util.Locale;
import org.HdrHistogram.Histogram;

/**
 * The reference SUT in its own JVM: {@code java <opts> -cp <rigscope's classpath> io.rigscope.rig.Main sut ...},
 * so that the generator's health (JVM pause, event-loop lag) measures the generator and not the SUT's garbage
 * collector or threads. Its stdout and stderr go to a log file; its URL is read from the line
 * {@code sut: listening on http://...} it prints once the pool is warm and the port bound. {@link #close()} (and a
 * shutdown hook, for Ctrl-C) sends SIGTERM, waits for the SUT to close its server and pool, then kills it. The
 * process handling is {@link ChildJvm}'s; this class gives it the SUT's command line and environment.
 *
 * <p>The database URL (password included), the app role's password and the API key reach the child through its
 * environment ({@code RIGSCOPE_PG}, {@code RIGSCOPE_APP_PASSWORD}, {@code RIGSCOPE_API_KEY}), never its command
 * line, which {@code ps} shows.
 *
 * <p>Blocking; not thread-safe.
 */
public final class SutProcess implements AutoCloseable {

    /** JVM options of the child unless {@code RIGSCOPE_SUT_JAVA_OPTS} gives others. */
    public static final String DEFAULT_JAVA_OPTS = "-Xms1g -Xmx1g -XX:+UseZGC -Dio.netty.leakDetection.level=disabled";
    private static final String NAME = "the reference SUT";
    private static final String LISTENING = "sut: listening on ";

    /**
     * How to start it.
     *
     * @param owner the database as the schema owner (the SUT migrates and provisions it)
     * @param appUser the role the SUT connects as
     * @param appPassword that role's password, or null (trust auth)
     * @param touch {@code per-minute} or {@code every-request}
     * @param insert {@code multi-row} or {@code per-event}
     * @param tenant the tenant to provision
     * @param apiKey the key to provision
     * @param startTimeout how long it may take to print its URL
     * @param logFile where its output goes
     * @param poolSize its connection pool size ({@code --pool-size}); 0 is the SUT's default
     */
    public record Spec(PgUrl owner, String appUser, String appPassword, String touch, String insert, String tenant,
                       String apiKey, Duration startTimeout, Path logFile, int poolSize) {

        /** The SUT's default pool. */
        public Spec(PgUrl owner, String appUser, String appPassword, String touch, String insert, String tenant,
                    String apiKey, Duration startTimeout, Path logFile) {
            this(owner, appUser, appPassword, touch, insert, tenant, apiKey, startTimeout, logFile, 0);
        }

        public Spec {
            Objects.requireNonNull(owner, "owner");
            Objects.requireNonNull(appUser, "appUser");
            Objects.requireNonNull(touch, "touch");
            Objects.requireNonNull(insert, "insert");
            Objects.requireNonNull(tenant, "tenant");
            Objects.requireNonNull(apiKey, "apiKey");
            Objects.requireNonNull(logFile, "logFile");
            if (startTimeout == null || startTimeout.isNegative() || startTimeout.isZero()) {
                throw new IllegalArgumentException("the SUT's start timeout must be > 0");
            }
        }
    }

    private final ChildJvm child;

    private SutProcess(ChildJvm child) {
        this.child = child;
    }

    /** A fresh log file in the temp directory, {@code rigscope-sut-<n>.log}. */
    public static Path newLogFile() {
        return ChildJvm.newLogFile("rigscope-sut-", "the SUT");
    }

    /**
     * Starts the child and waits until it prints its URL.
     *
     * @throws IllegalStateException when it exits or stays silent past {@code startTimeout} (it is then killed);
     *         the message names the log file and quotes its last lines
     */
    public static SutProcess start(Spec spec) {
        String opts = System.getenv("RIGSCOPE_SUT_JAVA_OPTS");
        List<String> javaOptions = Arrays.asList((opts == null || opts.isBlank() ? DEFAULT_JAVA_OPTS : opts)
                .strip().split("\\s+"));
        List<String> arguments = new java.util.ArrayList<>(List.of("sut", "--port", "0", "--bind", "127.0.0.1",
                "--migrate", "--app-user", spec.appUser(), "--api-key-touch", spec.touch(), "--insert", spec.insert(),
                "--tenant", spec.tenant()));
        if (spec.poolSize() > 0) {
            arguments.addAll(List.of("--pool-size", Integer.toString(spec.poolSize())));
        }
        Map<String, String> env = new HashMap<>();
        env.put("RIGSCOPE_PG", spec.owner().libpq());
        env.put("RIGSCOPE_API_KEY", spec.apiKey());
        env.put("RIGSCOPE_APP_PASSWORD", spec.appPassword()); // null: not inherited either
        return new SutProcess(ChildJvm.start(new ChildJvm.Spec(NAME, javaOptions, "io.rigscope.rig.Main", arguments,
                env, LISTENING, spec.startTimeout(), spec.logFile())));
    }

    /** Where it listens, e.g. {@code http://127.0.0.1:41234}. */
    public URI baseUri() {
        return child.baseUri();
    }

    /** Its stdout and stderr. */
    public Path logFile() {
        return child.log();
    }

    /** Its process id. */
    public long pid() {
        return child.pid();
    }

    /** SIGTERM, up to 10 s for it to close its server and pool, then SIGKILL. Idempotent. */
    @Override
    public void close() {
        child.close();
    }

    /**
     * Warms the reference SUT up before the first measured step, as anyone benchmarking a JVM does: the series' own
     * requests, open loop, at the highest rate the plan offers (the ladder's top rung or the sustained rate), in
     * {@link #SEGMENT} segments until the service has settled, with every record discarded: no repeat counts it,
     * nothing reaches the wire. What it spares the first step: a service JVM started seconds earlier that is still
     * loading and compiling its request path and filling its connection pool (docs/protocol.md, "Warming the service").
     *
     * <p>A full plan warms at least {@link #FULL} and at most {@link #FULL_MAX}: after the first three segments it stops
     * at the first segment that {@link #settled} (nothing dropped, and its p99 response time within 25 % + 10 ms of the
     * segment before). A short plan (sustained repeats under 20 s, the quick demo) warms one segment, {@link #SHORT}.
     * On a 2-core host a fresh SUT JVM's compilers and the load share the cores for 10-15 s; a fixed rung shorter than
     * that left the first measured seconds frozen (docs/calibrate.md).
     */
    public static final class SutWarmup {

        /** One segment: the unit the warm-up is measured and stopped in. */
        public static final Duration SEGMENT = Duration.ofSeconds(5);
        /** The shortest warm-up of a full plan. */
        public static final Duration FULL = Duration.ofSeconds(15);
        /** The longest warm-up of a full plan. */
        public static final Duration FULL_MAX = Duration.ofSeconds(40);
        /** The warm-up of a short plan (sustained repeats under 20 s). */
        public static final Duration SHORT = SEGMENT;

        private SutWarmup() {
        }

        /** The shortest warm-up of {@code plan}. */
        public static Duration length(SeriesPlan plan) {
            return isShort(plan) ? SHORT : FULL;
        }

        /** The longest warm-up of {@code plan}. */
        public static Duration maxLength(SeriesPlan plan) {
            return isShort(plan) ? SHORT : FULL_MAX;
        }

        private static boolean isShort(SeriesPlan plan) {
            return plan.sustained() != null && plan.sustained().duration().compareTo(Duration.ofSeconds(20)) < 0;
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

        /** What one segment measured. */
        public record Segment(long sent, long dropped, long failed, double p99Ms) {
        }

        /**
         * Whether {@code last} has settled after {@code before}: nothing dropped, and its p99 response time within 25 %
         * of the one before plus 10 ms, either way (a p99 still falling fast is a service still compiling).
         */
        public static boolean settled(Segment before, Segment last) {
            return last.dropped() == 0 && Math.abs(last.p99Ms() - before.p99Ms()) <= 0.25 * before.p99Ms() + 10;
        }

        /** Runs it against the plan's target (blocking), one console line per segment and one at the end. */
        public static void run(SeriesPlan plan, PrintStream console) {
            double rate = rate(plan);
            int least = (int) (length(plan).toSeconds() / SEGMENT.toSeconds());
            int most = (int) (maxLength(plan).toSeconds() / SEGMENT.toSeconds());
            String span = least == most ? "for " + most * SEGMENT.toSeconds() + " s"
                    : least * SEGMENT.toSeconds() + " to " + most * SEGMENT.toSeconds() + " s until the service settles";
            console.printf(Locale.ROOT, "sut: warm-up at %.0f req/s of the series' own requests, %s, not counted in any "
                    + "repeat (a JVM started seconds ago is still compiling its request path; docs/protocol.md)%n", rate,
                    span);
            long sent = 0;
            long failed = 0;
            Segment before = null;
            int n = 0;
            boolean settled = false;
            // the generator's client loops for every segment, closed when the warm-up ends
            try (ClientLoops loops = ClientLoops.open(GeneratorOptions.defaults().ioThreads())) {
                while (n < most && !(n >= least && settled)) {
                    Segment s = segment(plan, rate, n, loops);
                    n++;
                    sent += s.sent();
                    failed += s.failed();
                    settled = before != null && settled(before, s);
                    console.printf(Locale.ROOT, "sut: warm-up %2d-%2d s: %,d sent, %,d dropped, %,d failed, p99 %.1f ms%s%n",
                            (n - 1) * SEGMENT.toSeconds(), n * SEGMENT.toSeconds(), s.sent(), s.dropped(), s.failed(),
                            s.p99Ms(), settled ? " (settled)" : "");
                    before = s;
                }
            }
            console.printf(Locale.ROOT, "sut: warm-up done after %d s: %,d requests sent, %,d failed (discarded)%s%n",
                    n * SEGMENT.toSeconds(), sent, failed,
                    settled || most == 1 ? "" : "; not settled within " + most * SEGMENT.toSeconds()
                            + " s: the first step may still measure a warming service");
        }

        private static Segment segment(SeriesPlan plan, double rate, int n, ClientLoops loops) {
            Histogram responses = new Histogram(LatencySettings.LOWEST_US, LatencySettings.HIGHEST_US, 2);
            RecordSink keepLatency = (WireRecord record) -> {
                if (record instanceof SampleBatch batch) {
                    synchronized (responses) {
                        for (Sample s : batch.samples()) {
                            long us = Math.max(s.responseUs(), 0);
                            responses.recordValue(Math.min(us, responses.getHighestTrackableValue()));
                        }
                    }
                }
            };
            LoadPlan load = new LoadPlan(plan.series() + "-warmup-" + n, 0, "gen-warmup", "warmup", LoopMode.OPEN,
                    SEGMENT, SeriesRunner.scenariosOf(plan, rate, plan.load().maxInFlight(), LoopMode.OPEN),
                    LoadPlan.Lifecycle.NONE);
            RunSummary summary = new Generator(keepLatency, GeneratorOptions.defaults().withClientLoops(loops)).run(load)
                    .block(SEGMENT.plus(Duration.ofMinutes(2)));
            long sent = 0;
            long dropped = 0;
            long failed = 0;
            if (summary != null) {
                for (ScenarioSummary s : summary.scenarios()) {
                    sent += s.sent();
                    dropped += s.dropped();
                    failed += s.failed();
                }
            }
            double p99;
            synchronized (responses) {
                p99 = responses.getTotalCount() == 0 ? 0 : responses.getValueAtPercentile(99) / 1000.0;
            }
            return new Segment(sent, dropped, failed, p99);
        }
    }
}
