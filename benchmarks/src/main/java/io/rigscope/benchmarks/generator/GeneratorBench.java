package io.rigscope.benchmarks.generator;

import io.rigscope.generator.target.BenchServer;
import io.rigscope.generator.target.ThreadCpu;
import io.rigscope.generator.Generator;
import io.rigscope.generator.GeneratorOptions;
import io.rigscope.generator.outbox.RecordSink;
import io.rigscope.generator.RunSummary;
import io.rigscope.generator.ScenarioSummary;
import io.rigscope.generator.SecondReport;
import io.rigscope.generator.plan.LoadPlan;
import io.rigscope.generator.plan.LoopMode;
import io.rigscope.generator.plan.ResponseCheck;
import io.rigscope.generator.plan.Scenario;
import io.rigscope.model.wire.LatencySettings;
import io.rigscope.model.wire.Sample;
import io.rigscope.model.wire.SampleBatch;
import io.rigscope.model.wire.WireRecord;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.LongSupplier;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;

/**
 * Offers an open-loop GET load to a target (a {@link BenchServer} in this JVM, or one elsewhere) through the real
 * generator (scheduler, client, sample batcher, outbox, health) and reports how faithfully it kept the schedule.
 * Records go to the given sink (a counting sink, or Kafka when the caller wants the whole path measured).
 *
 * <p>The schedule's figures (sent, dropped, send lag) come from the generator's run summary. The service times
 * ({@link BenchResult#serviceP50Ms()}, {@link BenchResult#serviceP99Ms()}) do not: the generator keeps no latency
 * figures (the analyzer is the only source of those). Here the instrument measures itself against its own
 * server, so the bench takes them from the samples the run publishes: a {@link RecordSink} in front of the given
 * one records {@code t2 - t1} of every sample it passes on.
 */
public final class GeneratorBench {

    /**
     * The generator's own threads (client event loops, sample batcher, outbox, health and pause probe, run), whose CPU
     * is {@link BenchResult#generatorCpuUsPerRequest()}'s numerator ({@link BenchResult#cpuUsPerRequest()}'s is the
     * whole process's).
     */
    static final String GENERATOR_THREADS = "rig-gen-";

    private final URI target;
    private final LongSupplier serverCpuNanos;
    private final RecordSink sink;
    private final GeneratorOptions options;
    private final int maxInFlight;

    /** Against a server in this JVM, whose CPU is reported apart from the generator's. */
    public GeneratorBench(BenchServer server, RecordSink sink, GeneratorOptions options, int maxInFlight) {
        this(URI.create(server.url()), server::cpuNanos, sink, options, maxInFlight);
    }

    /**
     * Against {@code target}; {@code serverCpuNanos} reads the server's CPU time when it shares this process
     * (its share is then taken out of the generator's), or is {@code null} for a server elsewhere.
     */
    public GeneratorBench(URI target, LongSupplier serverCpuNanos, RecordSink sink, GeneratorOptions options,
                          int maxInFlight) {
        this.target = Objects.requireNonNull(target, "target");
        this.serverCpuNanos = serverCpuNanos;
        this.sink = Objects.requireNonNull(sink, "sink");
        this.options = Objects.requireNonNull(options, "options");
        this.maxInFlight = maxInFlight;
    }

    /** Runs {@code rate} requests/s for {@code duration}; blocks until done. */
    public BenchResult run(double rate, Duration duration) {
        return run(rate, duration, null);
    }

    /**
     * Runs {@code rate} requests/s for {@code duration} with every response checked by {@code check} (null: none,
     * the status decides); blocks until done. A response that fails the check counts in {@link BenchResult#failed()}.
     */
    public BenchResult run(double rate, Duration duration, ResponseCheck check) {
        Scenario scenario = new Scenario("bench", "GET", target, Map.of(), rate, maxInFlight,
                Duration.ofSeconds(10), null, check);
        LoadPlan plan = new LoadPlan("bench-" + System.currentTimeMillis(), 0, "gen-bench", "bench", LoopMode.OPEN,
                duration, List.of(scenario), LoadPlan.Lifecycle.NONE);
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long serverCpuBefore = serverCpuNanos == null ? 0 : serverCpuNanos.getAsLong();
        long cpuBefore = os.getProcessCpuTime();
        long wallBefore = System.nanoTime();
        RunSummary summary;
        Map<String, Double> byThread;
        long generatorCpuNanos;
        long generatorUserNanos;
        java.util.List<SecondReport> seconds = new java.util.concurrent.CopyOnWriteArrayList<>();
        GeneratorOptions recording = options.withListener(r -> {
            seconds.add(r);
            options.listener().onSecond(r);
        });
        ServiceTimes service = new ServiceTimes(sink);
        try (ThreadCpu cpu = new ThreadCpu()) {
            summary = new Generator(service, recording).run(plan).block(duration.plusMinutes(2));
            byThread = cpu.percentByGroup();
            generatorCpuNanos = cpu.cpuNanosSince(GENERATOR_THREADS);
            generatorUserNanos = cpu.userNanosSince(GENERATOR_THREADS);
        }
        long wall = System.nanoTime() - wallBefore;
        long processCpuNanos = os.getProcessCpuTime() - cpuBefore;
        double processPct = 100.0 * processCpuNanos / wall;
        long serverCpu = serverCpuNanos == null ? 0 : serverCpuNanos.getAsLong() - serverCpuBefore;
        ScenarioSummary s = Objects.requireNonNull(summary, "no summary").scenario("bench");
        double spanSec = (s.lastSendEpochUs() - s.firstSendEpochUs()) / 1e6;
        double offered = s.sent() > 1 && spanSec > 0 ? (s.sent() - 1) / spanSec : 0;
        double serverPct = serverCpuNanos == null ? Double.NaN : 100.0 * serverCpu / wall;
        // every thread of the process (the Kafka producer's, the JIT's, GC's), less the bench server's event loops
        double cpuUsPerRequest = s.completed() == 0 ? Double.NaN : (processCpuNanos - serverCpu) / 1000.0 / s.completed();
        double generatorUsPerRequest = s.completed() == 0 ? Double.NaN : generatorCpuNanos / 1000.0 / s.completed();
        double userUsPerRequest = s.completed() == 0 ? Double.NaN : generatorUserNanos / 1000.0 / s.completed();
        long droppedFirstSecond = seconds.isEmpty() ? 0 : seconds.get(0).dropped();
        Histogram serviceUs = service.recorded();
        return new BenchResult(rate, offered, s.sent(), s.dropped(), droppedFirstSecond, s.completed(), s.failed(), s.lagP50Ms(),
                s.lagP99Ms(), s.lagMaxMs(), ms(serviceUs, 50), ms(serviceUs, 99),
                serverCpuNanos == null ? processPct : processPct - serverPct, serverPct, cpuUsPerRequest,
                generatorUsPerRequest, userUsPerRequest, byThread, s.inFlightMax());
    }

    private static double ms(Histogram h, double percentile) {
        return h.getTotalCount() == 0 ? Double.NaN : h.getValueAtPercentile(percentile) / 1000.0;
    }

    /**
     * The bench's own record of service times: passes every record on to {@code next} and records
     * {@code t2 - t1} (µs, 3 significant digits) of each sample in a {@link SampleBatch} first. The generator calls
     * a sink from one thread (its outbox's drain thread), the one writer of the recorder; {@link #recorded} is
     * read once the run has ended.
     */
    private static final class ServiceTimes implements RecordSink {
        private final RecordSink next;
        private final SingleWriterRecorder recorder = new SingleWriterRecorder(LatencySettings.LOWEST_US,
                LatencySettings.HIGHEST_US, LatencySettings.DIGITS);

        ServiceTimes(RecordSink next) {
            this.next = next;
        }

        @Override
        public void publish(WireRecord record) {
            record(record);
            next.publish(record);
        }

        @Override
        public void publish(WireRecord record, Acknowledgement ack) {
            record(record);
            next.publish(record, ack);
        }

        private void record(WireRecord record) {
            if (record instanceof SampleBatch batch) {
                for (Sample s : batch.samples()) {
                    recorder.recordValue(Math.min(s.serviceUs(), LatencySettings.HIGHEST_US));
                }
            }
        }

        @Override
        public void flush() {
            next.flush();
        }

        /** Every service time recorded so far (the recorder's interval histogram since it was made). */
        Histogram recorded() {
            return recorder.getIntervalHistogram();
        }
    }
}
