package io.rigscope.rig.cli;

import com.fasterxml.jackson.databind.SerializationFeature;
import io.rigscope.benchmarks.generator.LagGoal;
import io.rigscope.benchmarks.generator.Wrk;
import io.rigscope.benchmarks.peers.CpuSplit;
import io.rigscope.benchmarks.peers.PeerBench;
import io.rigscope.benchmarks.peers.PeerRows;
import io.rigscope.generator.GeneratorOptions;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.rig.environment.EnvironmentFacts;
import io.rigscope.rig.options.Durations;
import io.rigscope.rig.options.ExitCodes;
import io.rigscope.rig.options.UsageException;
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
import picocli.CommandLine.Option;

/**
 * {@code bench generator --vs-peers}: its own options (a picocli mixin of {@link BenchGeneratorCommand}), the check
 * of the command's other flags against it, the run of {@link PeerBench} and the printing of its figures.
 */
final class BenchVsPeers {

    /** The best rows' client event loops when {@code --io-threads} is not given. */
    static final int BEST_CLIENT_LOOPS = 1;
    /** The best rows' in-flight cap (rigscope's; Hyperfoil's maxSessions) when {@code --max-in-flight} is not given. */
    static final int BEST_MAX_IN_FLIGHT = 1000;

    @Option(names = "--ladder", paramLabel = "RATES", defaultValue = "5000,10000,20000,30000,40000,50000,60000",
            description = "--vs-peers: the rates, req/s, comma-separated, climbed in order until a step does not hold (default ${DEFAULT-VALUE}).")
    String ladder;

    @Option(names = "--peer-warmup", defaultValue = "15s", description = "--vs-peers: an unmeasured run of each tool at the ladder's first rate before it climbs, as 3 runs (default ${DEFAULT-VALUE}, as the single run's --warmup; 0s: none).")
    Duration peerWarmup;

    @Option(names = "--peer-jvm-options", defaultValue = "-Xms1g -Xmx1g -XX:+UseZGC -Dio.netty.leakDetection.level=disabled",
            description = "--vs-peers: the flags of every JVM (the server's and each tool's), space-separated (default ${DEFAULT-VALUE}).")
    String peerJvmOptions;

    @Option(names = "--peer-connections", defaultValue = "64", description = "--vs-peers: Hyperfoil's shared keep-alive connections (default ${DEFAULT-VALUE}).")
    int peerConnections;

    @Option(names = "--peer-cpus", paramLabel = "SPLIT", defaultValue = "none",
            description = {"--vs-peers: the CPUs of the bench server and of the tool under test (taskset -c): none "
                + "(default: the kernel places both), auto (the server on the last CPU, each tool on the others, "
                + "when there are two or more and taskset is installed), or SERVER/TOOLS as CPU lists (1/0, 3/0-2)."})
    String peerCpus;

    @Option(names = "--peer-rows", paramLabel = "ROWS", defaultValue = "defaults,best",
            description = {"--vs-peers: which rows of each tool run, each in a fresh JVM up the whole ladder: defaults "
                + "(the tool as it comes), best (its best settings: --io-threads, --max-in-flight, --peer-connections, "
                + "--wrk-threads/--wrk-connections, rigscope's client flags), or both (default ${DEFAULT-VALUE}; "
                + "one row halves the run time)."})
    String peerRows;

    @Option(names = "--peers-dir", paramLabel = "DIR", description = "--vs-peers: where the peers' drivers are built (default: peers/ beside the rig/ the jar was built in).")
    Path peersDir;

    /** {@code --vs-peers}: checks its flags, runs {@link PeerBench}, prints its figures. */
    @SuppressWarnings("unchecked")
    Integer run(BenchGeneratorCommand c, Duration jitterLength) throws Exception {
        List<String> conflicting = new ArrayList<>();
        if (c.vsWrk) {
            conflicting.add("--vs-wrk (--vs-peers runs wrk itself)");
        }
        if (c.target != null) {
            conflicting.add("--target (--vs-peers starts its own server, to count what each tool offers)");
        }
        if (c.check != null) {
            conflicting.add("--check");
        }
        if (c.throughKafka) {
            conflicting.add("--kafka");
        }
        if (c.serverTimingPairs != 0) {
            conflicting.add("--server-timing-pairs");
        }
        if (c.spoolPairs != 0) {
            conflicting.add("--spool-pairs");
        }
        if (!conflicting.isEmpty()) {
            throw new UsageException("--vs-peers does not go with " + String.join(", ", conflicting));
        }
        List<Double> rates = parseLadder(ladder);
        List<String> rows;
        try {
            rows = PeerRows.parse(peerRows);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--peer-rows '" + peerRows + "': " + e.getMessage());
        }
        Duration step = Durations.positive("--step-duration", c.stepDuration);
        Duration warm = peerWarmup;
        if (!(c.tolerance > 0 && c.tolerance < 1)) {
            throw new UsageException("--tolerance must be > 0 and < 1, was " + c.tolerance);
        }
        int serverThreads = c.serverThreadsOption != null ? c.serverThreadsOption : CpuSplit.allowedCpus().size();
        // the best rows' client: --io-threads and --max-in-flight, else one loop and the cap 1,000 (docs/generator.md)
        int bestLoops = c.ioThreadsOption != null ? c.ioThreadsOption : BEST_CLIENT_LOOPS;
        int bestCap = c.maxInFlightOption != null ? c.maxInFlightOption : BEST_MAX_IN_FLIGHT;
        for (var e : Map.of("--io-threads", bestLoops, "--server-threads", serverThreads, "--max-in-flight", bestCap,
                "--peer-connections", peerConnections, "--wrk-threads", c.wrkThreads, "--wrk-connections", c.wrkConnections).entrySet()) {
            if (e.getValue() < 1) {
                throw new UsageException(e.getKey() + " must be >= 1, was " + e.getValue());
            }
        }
        if (c.minWakeGapUs < 0) {
            throw new UsageException("--min-wake-gap-us must be >= 0, was " + c.minWakeGapUs);
        }
        c.client.applyTo(GeneratorOptions.defaults()); // checks --preconnect-ms, --poll-us, --idle-timeout
        List<String> jvm = List.of(peerJvmOptions.strip().split("\\s+"));
        if (peerJvmOptions.isBlank()) {
            throw new UsageException("--peer-jvm-options must not be empty (the same heap and GC flags for every JVM)");
        }
        Map<String, String> rigscopeProps = new LinkedHashMap<>();
        rigscopeProps.put("rigscope.peer.min-wake-gap-us", Long.toString(c.minWakeGapUs));
        rigscopeProps.put("rigscope.peer.preconnect-ms", Long.toString(c.client.preconnectMs));
        rigscopeProps.put("rigscope.peer.poll-us", Long.toString(c.client.pollUs));
        rigscopeProps.put("rigscope.peer.max-send-lag-us", Long.toString(c.client.maxSendLagNanos() / 1000));
        rigscopeProps.put("rigscope.peer.busy-poll", Boolean.toString(c.client.busyPoll));
        StringBuilder cpusWhy = new StringBuilder();
        Optional<CpuSplit> cpus;
        try {
            cpus = CpuSplit.parse(peerCpus, cpusWhy);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        Optional<Wrk> wrk = c.findWrk();
        Path logs = Files.createTempDirectory("rigscope-vs-peers");
        PeerBench.Config config = new PeerBench.Config(rates, step, warm, rates.get(0), c.tolerance, jvm,
                System.getProperty("java.class.path"), peersDir != null ? peersDir : defaultPeersDir(), wrk,
                wrk.isEmpty() ? c.wrkMissing() : null, c.wrkThreads, c.wrkConnections, serverThreads, bestLoops, bestCap,
                peerConnections, rigscopeProps, jitterLength, logs, cpus, cpusWhy.toString(), rows);
        Map<String, Object> out = new PeerBench(config, new PeerBench.Launch(BenchServerMain.class.getName(),
                BenchPeerMain.class.getName(), EnvironmentFacts.readVersion()), System.err).run();
        if (out.get("timer_jitter") != null) {
            Map<String, Object> jitter = (Map<String, Object>) out.get("timer_jitter");
            out.put("host_allows_lag_goal", ((Number) jitter.get("p99_ms")).doubleValue() <= LagGoal.GOAL_MS);
        }
        if (c.json) {
            System.out.println(new WireCodec().json().copy().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(out));
        } else {
            printPeerTable(out);
        }
        return rigscopeFailed(out) ? ExitCodes.ERROR : ExitCodes.OK;
    }

    /** {@code --ladder}: positive rates, comma-separated. */
    static List<Double> parseLadder(String value) {
        List<Double> rates = new ArrayList<>();
        for (String part : value.split(",")) {
            double r;
            try {
                r = Double.parseDouble(part.strip());
            } catch (NumberFormatException e) {
                throw new UsageException("--ladder '" + value + "': '" + part.strip() + "' is not a number (e.g. --ladder 5000,10000,20000)");
            }
            if (!(r > 0) || Double.isInfinite(r)) {
                throw new UsageException("--ladder '" + value + "': every rate must be > 0, was " + part.strip());
            }
            rates.add(r);
        }
        return rates;
    }

    /** peers/ of the source tree the running jar (rig/c.target/rigscope.jar) or classes (rig/c.target/classes) came from. */
    private static Path defaultPeersDir() {
        try {
            Path here = Path.of(BenchVsPeers.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            Path root = here.getParent() == null || here.getParent().getParent() == null ? null
                    : here.getParent().getParent().getParent();
            return root == null ? Path.of("peers") : root.resolve("peers");
        } catch (URISyntaxException | RuntimeException e) {
            return Path.of("peers");
        }
    }

    /** True when a row of rigscope's own ended in an error (a peer's failure is only reported). */
    @SuppressWarnings("unchecked")
    private static boolean rigscopeFailed(Map<String, Object> out) {
        for (Map<String, Object> tool : (List<Map<String, Object>>) out.get("tools")) {
            if (tool.get("tool").equals("rigscope")) {
                for (String row : PeerRows.NAMES) {
                    if (tool.get(row) instanceof Map<?, ?> r && r.containsKey("error")) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /** The --vs-peers figures as a table: a line per tool and row. */
    @SuppressWarnings("unchecked")
    private static void printPeerTable(Map<String, Object> out) {
        System.out.printf(Locale.ROOT, "%-10s %-9s %-12s %-22s %-15s %-16s %s%n", "tool", "row", "version",
                "max rate held (req/s)", "CPU µs/request", "its latency", "settings");
        for (Map<String, Object> tool : (List<Map<String, Object>>) out.get("tools")) {
            if (tool.get("skipped") != null) {
                System.out.printf(Locale.ROOT, "%-10s %-9s %-12s skipped: %s%n", tool.get("tool"), "-", "-", tool.get("skipped"));
                continue;
            }
            for (String row : PeerRows.NAMES) {
                if (!(tool.get(row) instanceof Map<?, ?> raw)) {
                    continue;
                }
                Map<String, Object> r = (Map<String, Object>) raw;
                Object max = r.containsKey("max_closed_rate_per_s") ? r.get("max_closed_rate_per_s") + " (closed)"
                        : r.get("max_open_rate_per_s");
                Object latency = r.get("latency") instanceof Map<?, ?> l && l.get("p99_ms") != null
                        ? "p99 " + l.get("p99_ms") + " ms" : "-";
                System.out.printf(Locale.ROOT, "%-10s %-9s %-12s %-22s %-15s %-16s %s%s%n", tool.get("tool"), row,
                        tool.get("version"), max, r.get("cpu_us_per_request"), latency, r.get("settings"),
                        r.get("error") != null ? "  failed: " + r.get("error") : "");
            }
        }
        System.out.println("goal " + out.get("goal"));
        if (out.get("timer_jitter") != null) {
            System.out.println("timer_jitter " + out.get("timer_jitter") + (Boolean.TRUE.equals(out.get("host_allows_lag_goal"))
                    ? "" : " (over the " + LagGoal.GOAL_MS + " ms lag goal: this host does not allow it)"));
        }
        System.out.println("logs " + out.get("logs"));
    }

}
