package io.rigscope.benchmarks.peers;

import io.rigscope.benchmarks.generator.TimerJitter;
import io.rigscope.benchmarks.generator.Wrk;
import io.rigscope.localenv.childjvm.ChildJvm;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * {@code rigscope bench generator --vs-peers}: one bench server in a JVM of its own, then each load tool in a JVM of
 * its own (the same heap and GC flags) up the same ladder of rates, open loop, one tool at a time: rigscope, then
 * Hyperfoil and Gatling when their drivers are built (module {@code peers}, Maven profile {@code peers}); then wrk,
 * closed loop, as the ceiling, when it is installed. Each tool runs twice, a fresh JVM each time: with its own
 * defaults and with its best settings ({@link PeerRows}; {@code Config.rows} may ask for one). A tool that cannot be
 * had is skipped with the reason, in the progress and in the figures.
 *
 * <p>A step <b>holds</b> when, over the whole step, the server counted the offered rate: the requests that arrived
 * are within the tolerance of {@code rate × length}, the rate between the first and the last arrival is within the
 * tolerance of {@code rate}, and the tool reported no error and did not hit its concurrency cap (rigscope: no drop;
 * Hyperfoil: no session started late for want of a free one). A tool climbs the ladder until a step does not hold;
 * its maximum is the highest rate held. CPU per request is the tool process's CPU (/proc, all threads) from the
 * step's command to its end, divided by the requests the server counted.
 */
public final class PeerBench {

    /** The two peers driven through their Java APIs, in the order they run. */
    static final List<String> JVM_PEERS = List.of("hyperfoil", "gatling");
    /** The warm-up is this many runs of the tool. */
    static final int WARMUP_RUNS = 3;
    /**
     * How long past its length a tool's step may take to say 'ended' before the bench gives up on the tool (it keeps
     * the steps made, with an error): Hyperfoil's and Gatling's own start and teardown take seconds. A tool that
     * hangs (Gatling with one CPU: its stats engine timed out at start and the run never ended) costs this rather
     * than minutes.
     */
    static final Duration STEP_GRACE = Duration.ofSeconds(45);
    /** The one flag Gatling needs beyond the common ones. */
    static final String GATLING_OPENS = "--add-opens=java.base/java.lang=ALL-UNNAMED";
    /** How the peers are built. */
    static final String BUILD_PEERS = "mvn -B -Ppeers -pl peers/hyperfoil,peers/gatling -am package -DskipTests";

    /**
     * The bench's settings.
     *
     * @param ladder the rates, requests/s, climbed in order
     * @param step each step's length
     * @param warmup an unmeasured run of each tool before its ladder (zero: none)
     * @param warmupRate its rate
     * @param tolerance the offered-rate tolerance of "holds" (0.005 = 0.5 %)
     * @param jvmOptions every JVM's heap, GC and other flags (the server's and each tool's)
     * @param classpath rigscope's class path (the server's and rigscope's tool JVM)
     * @param peersDir where the peers' modules are built ({@code peers/} of the source tree)
     * @param wrk wrk, or empty when it is not installed
     * @param wrkMissing why wrk is empty
     * @param wrkThreads wrk -t of its best row
     * @param wrkConnections wrk -c of its best row
     * @param serverThreads the bench server's event loops
     * @param toolThreads the best rows' event loops (rigscope's client loops, Hyperfoil's threads)
     * @param maxInFlight the best rows' concurrency cap (rigscope's in-flight cap, Hyperfoil's maxSessions)
     * @param connections Hyperfoil's shared connections in its best row
     * @param rigscopeProperties rigscope's own client settings in its best row, as system properties of its JVM
     * @param jitterLength how long the host's timer jitter is measured before the bench (zero: not measured)
     * @param logDir where every child's stderr goes
     * @param cpus the server's CPUs and the tools', or empty: not pinned
     * @param cpusWhy why not pinned, when {@code cpus} is empty
     * @param rows which rows of each tool run ({@link PeerRows#NAMES}: its defaults, its best settings)
     */
    public record Config(List<Double> ladder, Duration step, Duration warmup, double warmupRate, double tolerance,
                         List<String> jvmOptions, String classpath, Path peersDir, Optional<Wrk> wrk,
                         String wrkMissing, int wrkThreads, int wrkConnections, int serverThreads, int toolThreads,
                         int maxInFlight, int connections, Map<String, String> rigscopeProperties,
                         Duration jitterLength, Path logDir, Optional<CpuSplit> cpus, String cpusWhy,
                         List<String> rows) {
        public Config {
            rows = List.copyOf(rows);
        }
    }

    /**
     * What belongs to the rigscope command, which starts the bench: the main classes its child JVMs run (from
     * {@link Config#classpath()}) and its version.
     *
     * @param serverMain the main class of the bench server: {@code rigscope bench server} with the arguments it is
     *                   given ({@code --threads N --control})
     * @param peerMain the main class of rigscope's own tool: sets up the command's logging, then
     *                 {@link RigscopePeer#main}
     * @param version rigscope's version, as the build wrote it (what rigscope's tool says it is)
     */
    public record Launch(String serverMain, String peerMain, String version) {
    }

    /** A tool to run: its name, its JVM's class path and main class, or why it is skipped. */
    record Tool(String name, String classpath, String mainClass, String skipped) {
    }

    private final Config config;
    private final Launch launch;
    private final PrintStream progress;

    public PeerBench(Config config, Launch launch, PrintStream progress) {
        this.config = config;
        this.launch = launch;
        this.progress = progress;
    }

    /** Runs the bench; returns its figures (the JSON of {@code --vs-peers --json}). */
    public Map<String, Object> run() throws IOException {
        Map<String, Object> out = new LinkedHashMap<>();
        TimerJitter jitter = null;
        if (!config.jitterLength().isZero()) {
            progress.printf(Locale.ROOT, "bench: the host's timer jitter: a thread sleeping to a 50 µs schedule for %d s%n",
                    config.jitterLength().toSeconds());
            jitter = TimerJitter.measure(config.jitterLength(), Duration.ofNanos(50_000));
            progress.printf(Locale.ROOT, "bench: timer jitter p50 %.3f ms, p99 %.3f ms, max %.3f ms%n",
                    jitter.p50Ms(), jitter.p99Ms(), jitter.maxMs());
        }
        List<Tool> tools = new ArrayList<>();
        tools.add(new Tool("rigscope", config.classpath(), launch.peerMain(), null));
        for (String peer : JVM_PEERS) {
            tools.add(find(config.peersDir(), peer));
        }
        List<Map<String, Object>> figures = new ArrayList<>();
        try (ChildJvm server = startServer()) {
            String url = server.next(Duration.ofSeconds(60));
            if (!url.startsWith("http://")) {
                throw new IllegalStateException("the bench server printed '" + url + "' instead of its URL (log: "
                        + server.log() + ")");
            }
            progress.printf("bench: server %s (pid %d, %d event loop(s), JVM %s); ladder %s req/s, %d s a step, "
                            + "tolerance %.2f %%; rows %s%n", url, server.pid(), config.serverThreads(),
                    String.join(" ", config.jvmOptions()), ladderText(), config.step().toSeconds(),
                    100 * config.tolerance(), String.join(",", config.rows()));
            progress.println("bench: CPUs: " + config.cpus().map(c -> "the server on " + c.server()
                    + ", each tool on " + c.tools() + " (taskset -c)").orElse(config.cpusWhy()));
            for (Tool tool : tools) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("tool", tool.name());
                if (tool.skipped() != null) {
                    progress.printf("bench: %s: skipped: %s%n", tool.name(), tool.skipped());
                    m.put("version", null);
                    m.put("skipped", tool.skipped());
                } else {
                    for (String row : config.rows()) {
                        m.put(row, climb(tool, PeerRows.of(tool.name(), row, config, toolCpus()), server, url, m));
                    }
                }
                figures.add(m);
            }
            figures.add(wrk(server, url));
        }
        out.put("tools", figures);
        out.put("goal", PeerGoal.of(figures));
        if (jitter != null) {
            out.put("timer_jitter", jitter.toMap());
        }
        out.put("rows", config.rows());
        out.put("ladder", config.ladder());
        out.put("step_s", config.step().toMillis() / 1000.0);
        out.put("warmup_s", config.warmup().toMillis() / 1000.0);
        out.put("warmup_rate_per_s", config.warmupRate());
        out.put("tolerance", config.tolerance());
        out.put("jvm_options", String.join(" ", config.jvmOptions()));
        out.put("server_threads", config.serverThreads());
        out.put("cpus", config.cpus().<Object>map(CpuSplit::toMap).orElse(config.cpusWhy()));
        out.put("cores", Runtime.getRuntime().availableProcessors());
        out.put("load_avg_1m", java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        out.put("logs", config.logDir().toString());
        return out;
    }

    /** How many CPUs a tool may use: its share under --peer-cpus, else all this process may use. */
    private int toolCpus() {
        return config.cpus().map(c -> CpuSplit.expand(c.tools()).size()).orElse(CpuSplit.allowedCpus().size());
    }

    /** The peer {@code name}'s driver as built under {@code peersDir}, or a skipped tool saying what is missing. */
    static Tool find(Path peersDir, String name) {
        Path target = peersDir.resolve(name).resolve("target");
        Path jar = target.resolve("rigscope-peer-" + name + ".jar");
        Path classpathFile = target.resolve("peer.classpath");
        String main = "io.rigscope.peers." + name + "." + Character.toUpperCase(name.charAt(0)) + name.substring(1) + "Peer";
        if (!Files.isRegularFile(jar) || !Files.isRegularFile(classpathFile)) {
            return new Tool(name, null, main, "its driver is not built (" + jar + " or " + classpathFile
                    + " missing); build it with: " + BUILD_PEERS + " (Maven resolves " + artifact(name) + ")");
        }
        String deps;
        try {
            deps = Files.readString(classpathFile, StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            return new Tool(name, null, main, "cannot read " + classpathFile + ": " + e.getMessage());
        }
        for (String entry : deps.split(java.io.File.pathSeparator)) {
            if (!entry.isEmpty() && !Files.exists(Path.of(entry))) {
                return new Tool(name, null, main, entry + " (on " + classpathFile + ") is missing; rebuild with: "
                        + BUILD_PEERS);
            }
        }
        return new Tool(name, jar + java.io.File.pathSeparator + deps, main, null);
    }

    private static String artifact(String name) {
        return switch (name) {
            case "hyperfoil" -> "io.hyperfoil:hyperfoil-core,hyperfoil-http:0.25.2";
            case "gatling" -> "io.gatling:gatling-app,gatling-http-java:3.13.5";
            default -> name;
        };
    }

    private ChildJvm startServer() throws IOException {
        List<String> command = new ArrayList<>(config.cpus().map(CpuSplit::serverLauncher).orElse(List.of()));
        command.addAll(java(config.classpath()));
        command.add(launch.serverMain());
        command.addAll(List.of("--threads", Integer.toString(config.serverThreads()), "--control"));
        return ChildJvm.start("bench server", command, config.logDir().resolve("server.log"));
    }

    private List<String> java(String classpath) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(config.jvmOptions());
        command.add("-cp");
        command.add(classpath);
        return command;
    }

    /**
     * Starts {@code tool} in a JVM of its own with the settings of {@code row}, warms it, climbs the ladder; the
     * row's figures, or its error. The tool's version goes into {@code toolFigures}.
     */
    private Map<String, Object> climb(Tool tool, PeerRows.Row row, ChildJvm server, String url,
                                      Map<String, Object> toolFigures) throws IOException {
        List<String> command = new ArrayList<>(config.cpus().map(CpuSplit::toolLauncher).orElse(List.of()));
        command.addAll(java(tool.classpath()));
        row.properties().entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(e -> command.add("-D" + e.getKey() + "=" + e.getValue()));
        if (tool.name().equals("rigscope")) {
            command.add("-D" + RigscopePeer.VERSION_PROPERTY + "=" + launch.version());
        }
        if (tool.name().equals("gatling")) {
            // Gatling writes and reads its simulation.log through String's internals (StringInternals), which
            // Java 17 opens only on request; its own launchers pass the same
            command.add(GATLING_OPENS);
        }
        command.add(tool.mainClass());
        command.add(url);
        String label = tool.name() + " " + row.name();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("settings", row.settings());
        List<Map<String, Object>> steps = new ArrayList<>();
        PeerStep best = null;
        String first = null;
        try (ChildJvm child = ChildJvm.start(label, command,
                config.logDir().resolve(tool.name() + "-" + row.name() + ".log"))) {
            Map<String, String> ready = fields(child.next(Duration.ofSeconds(120)), "ready");
            toolFigures.putIfAbsent("version", ready.getOrDefault("version", "unknown"));
            progress.printf("bench: %s %s (pid %d, log %s), settings %s%n", label, toolFigures.get("version"),
                    child.pid(), child.log(), row.settings());
            if (!config.warmup().isZero()) {
                // in runs, as the single-run bench warms: the code that opens and closes connections runs once
                // per run, so it is compiled only after a few
                Duration each = config.warmup().dividedBy(WARMUP_RUNS);
                for (int i = 1; i <= WARMUP_RUNS; i++) {
                    progress.printf(Locale.ROOT, "bench: %-18s warm-up %d/%d: %.0f req/s for %.1f s (not measured)%n",
                            label, i, WARMUP_RUNS, config.warmupRate(), each.toMillis() / 1000.0);
                    step(child, server, config.warmupRate(), each);
                }
            }
            int n = 0;
            for (double rate : config.ladder()) {
                n++;
                PeerStep s = step(child, server, rate, config.step());
                steps.add(s.toMap());
                progress.println(s.line(label, n, config.ladder().size()));
                if (!s.held()) {
                    first = s.why();
                    break;
                }
                best = s;
            }
        } catch (RuntimeException e) {
            progress.printf("bench: %s: failed: %s%n", label, e.getMessage());
            m.put("error", e.getMessage());
        }
        m.put("max_open_rate_per_s", best == null ? 0.0 : best.rate());
        m.put("cpu_us_per_request", best == null ? null : round(best.cpuUsPerRequest(), 2));
        m.put("cpu_at_rate_per_s", best == null ? null : best.rate());
        m.put("sleeps_per_request", best == null ? null : best.sleepsPerRequestFigure());
        m.put("latency", best == null ? null : best.latency());
        m.put("first_not_held", first);
        m.put("steps", steps);
        return m;
    }

    /** One step: the server's window opened, the tool's step, its CPU and the server's count read. */
    private PeerStep step(ChildJvm tool, ChildJvm server, double rate, Duration length) {
        server.send("open");
        expect(server, "ok");
        long serverCpu = server.cpuNanos();
        long cpu = tool.cpuNanos();
        ThreadSleeps sleeping = ThreadSleeps.start(tool.pid());
        // this JVM only waits during the step: a thread of it sleeping to a schedule sees the host's contention
        TimerJitter.Running probe = TimerJitter.start(TimerJitter.BESIDE_LOAD_PERIOD);
        tool.send(String.format(Locale.ROOT, "step %.3f %d", rate, length.toMillis()));
        String ended;
        TimerJitter hostJitter;
        long sleeps;
        try {
            ended = tool.next(length.plus(STEP_GRACE));
        } finally {
            hostJitter = probe.stop();
            sleeps = sleeping.stop();
        }
        long cpuNanos = tool.cpuNanos() - cpu;
        long serverCpuNanos = server.cpuNanos() - serverCpu;
        if (!ended.equals("ended")) {
            throw new IllegalStateException("expected 'ended', got '" + ended + "' (log: " + tool.log() + ")");
        }
        server.send("window");
        String[] w = server.next(Duration.ofSeconds(30)).split(" ");
        if (w.length != 4 || !w[0].equals("window")) {
            throw new IllegalStateException("the bench server answered '" + String.join(" ", w) + "' to 'window'");
        }
        String result = tool.next(Duration.ofMinutes(2));
        if (result.startsWith("error")) {
            throw new IllegalStateException(result.substring(5).strip() + " (log: " + tool.log() + ")");
        }
        return new PeerStep(rate, length, Long.parseLong(w[1]), Long.parseLong(w[2]), Long.parseLong(w[3]), cpuNanos,
                serverCpuNanos, sleeps, fields(result, "result"), config.tolerance(), hostJitter);
    }

    private static void expect(ChildJvm child, String wanted) {
        String line = child.next(Duration.ofSeconds(30));
        if (!line.equals(wanted)) {
            throw new IllegalStateException("expected '" + wanted + "', got '" + line + "' (log: " + child.log() + ")");
        }
    }

    /** {@code key=value} tokens after {@code head}. */
    static Map<String, String> fields(String line, String head) {
        String[] f = line.strip().split("\\s+");
        if (!f[0].equals(head)) {
            throw new IllegalStateException("expected '" + head + " ...', got '" + line + "'");
        }
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 1; i < f.length; i++) {
            int eq = f[i].indexOf('=');
            if (eq > 0) {
                m.put(f[i].substring(0, eq), f[i].substring(eq + 1));
            }
        }
        return m;
    }

    /**
     * wrk, closed loop, for one step's length against the same server, once per row (its defaults, then the
     * bench's {@code --wrk-threads}/{@code --wrk-connections}): the ceiling; or why it is skipped.
     */
    private Map<String, Object> wrk(ChildJvm server, String url) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("tool", "wrk");
        if (config.wrk().isEmpty()) {
            progress.printf("bench: wrk: skipped: %s%n", config.wrkMissing());
            out.put("version", null);
            out.put("skipped", config.wrkMissing());
            return out;
        }
        Wrk wrk = config.wrk().get();
        out.put("version", wrk.version());
        for (String rowName : config.rows()) {
            PeerRows.Row row = PeerRows.of("wrk", rowName, config, toolCpus());
            int threads = (Integer) row.settings().get("threads");
            int connections = (Integer) row.settings().get("connections");
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("settings", row.settings());
            try {
                progress.printf("bench: wrk %s %s -t%d -c%d -d%ds %s (closed loop)%n", row.name(), out.get("version"),
                        threads, connections, Math.max(1, config.step().toSeconds()), url);
                server.send("open");
                expect(server, "ok");
                Wrk.Result r = wrk.run(url, threads, connections, config.step(),
                        config.cpus().map(CpuSplit::toolLauncher).orElse(List.of()));
                server.send("window");
                String[] w = server.next(Duration.ofSeconds(30)).split(" ");
                long count = Long.parseLong(w[1]);
                double serverRate = count < 2 ? 0 : (count - 1) * 1e9 / (Long.parseLong(w[3]) - Long.parseLong(w[2]));
                m.put("max_closed_rate_per_s", round(serverRate, 1));
                m.put("cpu_us_per_request", count == 0 ? null : round(r.cpuSec() * 1e6 / count, 2));
                m.put("wrk_requests_per_s", round(r.requestsPerSec(), 1));
                m.put("server_counted", count);
                progress.printf(Locale.ROOT, "bench: wrk %-14s server counted %d = %.0f req/s, wrk's CPU %.2f µs/req%n",
                        row.name(), count, serverRate, count == 0 ? Double.NaN : r.cpuSec() * 1e6 / count);
            } catch (RuntimeException e) {
                progress.printf("bench: wrk %s: failed: %s%n", row.name(), e.getMessage());
                m.put("error", e.getMessage());
                m.put("max_closed_rate_per_s", null);
                m.put("cpu_us_per_request", null);
            }
            out.put(row.name(), m);
        }
        return out;
    }

    private String ladderText() {
        StringBuilder b = new StringBuilder();
        for (double r : config.ladder()) {
            b.append(b.isEmpty() ? "" : ",").append(String.format(Locale.ROOT, "%.0f", r));
        }
        return b.toString();
    }

    static Double round(double v, int digits) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return null;
        }
        double f = Math.pow(10, digits);
        return Math.round(v * f) / f;
    }
}
