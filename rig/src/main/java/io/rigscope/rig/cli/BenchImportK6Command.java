package io.rigscope.rig.cli;

import io.rigscope.importers.k6.bench.SyntheticK6Run;
import io.rigscope.importers.k6.K6Import;
import io.rigscope.model.proc.ProcStat;
import io.rigscope.rig.options.ExitCodes;
import io.rigscope.rig.options.UsageException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code rigscope bench import-k6 FILE}: the k6 reader (file to records ready to publish, nothing published) against
 * {@code jq -c .} on the same file, in one run.
 */
@Command(name = "import-k6", mixinStandardHelpOptions = true,
        description = {"Time the k6 reader (K6Import: the file read to the records 'import k6' publishes, none "
            + "published) and 'jq -c .' on the same file (gzip: 'gzip -dc | jq -c .'), one after the other. "
            + "Prints lines, lines_per_s, jq_lines_per_s and ratio (reader / jq). Target: ratio >= 10. Also the CPU "
            + "each took (reader_cpu_s: this JVM, JIT and GC threads included; jq_cpu_s: jq and gzip) and cpu_ratio, "
            + "which a loaded machine disturbs less than the wall-clock ratio."})
final class BenchImportK6Command implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "FILE", description = "A k6 --out json file (or .gz).")
    Path file;

    @Option(names = "--json", description = "Print one JSON object.")
    boolean json;

    @Option(names = "--jq", paramLabel = "PATH", description = "The jq to run (default: jq on the PATH).")
    String jq = "jq";

    @Option(names = "--generate", paramLabel = "REQUESTS",
            description = {"First write FILE: a synthetic k6 run of REQUESTS requests shaped as k6 writes an HTTP test "
                + "(13 points per request: http_reqs, http_req_duration and its phases, http_req_failed, checks, "
                + "data_*, iteration_duration, iterations; vus each second; thresholds on three metrics)."})
    Long generate;

    /** What {@code --generate} writes. */
    enum Shape { k6, points }

    @Option(names = "--shape", paramLabel = "k6|points", defaultValue = "k6",
            description = {"With --generate: 'k6' (default) writes the k6-shaped run above; 'points' writes a run "
                + "where every line is a point the reader reads: 2 points per request (http_req_duration and "
                + "http_reqs, k6's HTTPS tags: expected_response, group, method, name, proto, scenario, status, "
                + "tls_version, url) plus their two Metric lines."})
    Shape shape;

    @Override
    public Integer call() throws Exception {
        if (generate != null) {
            if (generate < 1) {
                throw new UsageException("--generate must be >= 1, was " + generate);
            }
            long written = shape == Shape.points ? SyntheticK6Run.writeRequestPoints(file, generate)
                    : SyntheticK6Run.write(file, generate);
            System.err.printf(Locale.ROOT, "bench import-k6: wrote %s: %,d lines, %,d requests, %,d bytes%n", file,
                    written, generate, Files.size(file));
        }
        if (generate == null && shape != Shape.k6) {
            throw new UsageException("--shape " + shape + " needs --generate REQUESTS (it says what to write)");
        }
        if (!Files.isRegularFile(file)) {
            throw new UsageException("FILE " + file + " is not a readable file");
        }
        AtomicLong records = new AtomicLong();
        long readerNs;
        long cpuBeforeNs;
        long readerCpuNs;
        K6Import.Result result;
        try (Ticker t = new Ticker(() -> String.format(Locale.ROOT, "bench import-k6: reader, %,d records",
                records.get()))) {
            long start = System.nanoTime();
            cpuBeforeNs = processCpuNs();
            try {
                result = K6Import.read(file, new K6Import.Options("bench-import-k6", 1, "k6", Map.of(), true, true,
                        500), r -> records.incrementAndGet());
            } catch (IllegalArgumentException e) {
                throw new UsageException(e.getMessage());
            }
            readerNs = System.nanoTime() - start;
            readerCpuNs = processCpuNs() - cpuBeforeNs;
        }
        long lines = result.lines();
        double readerPerSec = lines / (readerNs / 1e9);
        Double jqPerSec;
        double jqCpuSec;
        try (Ticker t = new Ticker(() -> "bench import-k6: " + jq + " -c . running")) {
            double childCpuBefore = childrenCpuSec();
            long jqNs = runJq();
            jqCpuSec = childrenCpuSec() - childCpuBefore;
            jqPerSec = lines / (jqNs / 1e9);
        }
        double ratio = readerPerSec / jqPerSec;
        double readerCpuSec = readerCpuNs / 1e9;
        double cpuRatio = readerCpuSec > 0 && jqCpuSec > 0 ? jqCpuSec / readerCpuSec : Double.NaN;
        if (json) {
            System.out.println(new FiguresJson().put("lines", lines).fixed("lines_per_s", readerPerSec, 0)
                    .fixed("jq_lines_per_s", jqPerSec, 0).fixed("ratio", ratio, 2).put("samples", result.samples())
                    .put("records", records.get()).fixed("reader_s", readerNs / 1e9, 3).fixed("jq_s", lines / jqPerSec, 3)
                    .fixed("reader_cpu_s", readerCpuSec, 3).fixed("jq_cpu_s", jqCpuSec, 3).fixed("cpu_ratio", cpuRatio, 2)
                    .toJson());
        } else {
            System.out.printf(Locale.ROOT, "lines           %,d (%,d samples, %,d records)%n", lines, result.samples(),
                    records.get());
            System.out.printf(Locale.ROOT, "lines_per_s     %,.0f  (%.3f s)%n", readerPerSec, readerNs / 1e9);
            System.out.printf(Locale.ROOT, "jq_lines_per_s  %,.0f  (%.3f s)%n", jqPerSec, lines / jqPerSec);
            System.out.printf(Locale.ROOT, "ratio           %.2f  (target >= 10)%n", ratio);
            System.out.printf(Locale.ROOT, "cpu_ratio       %.2f  (jq %.3f s of CPU / the reader's %.3f s, JIT and GC "
                    + "threads included)%n", cpuRatio, jqCpuSec, readerCpuSec);
        }
        return ExitCodes.OK;
    }

    /** CPU time of this JVM so far, every thread (JIT and GC included), ns; -1 when the platform does not say. */
    private static long processCpuNs() {
        if (java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return -1;
    }

    /**
     * CPU time of this process's children that have ended and been waited for (Linux: {@code /proc/self/stat}
     * cutime + cstime), s; NaN elsewhere. jq (and gzip before it) are such children once {@link #runJq} returns.
     */
    private static double childrenCpuSec() {
        try {
            return ProcStat.read(Path.of("/proc/self/stat")).childrenCpuSec();
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    /** Runs jq over the file, its output discarded; returns its wall time, ns. */
    private long runJq() throws InterruptedException {
        boolean gz;
        try (var in = Files.newInputStream(file)) {
            gz = in.read() == 0x1f && in.read() == 0x8b;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
        List<String> command = gz
                ? List.of("sh", "-c", "gzip -dc \"$1\" | \"$2\" -c . > /dev/null", "sh", file.toString(), jq)
                : List.of(jq, "-c", ".", file.toString());
        ProcessBuilder pb = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.INHERIT);
        long start = System.nanoTime();
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + jq + " (install it, e.g. apt-get install -y jq, or pass "
                    + "--jq PATH): " + e.getMessage(), e);
        }
        int code = p.waitFor();
        long ns = System.nanoTime() - start;
        if (code != 0) {
            throw new IllegalStateException(String.join(" ", command) + " exited " + code);
        }
        return ns;
    }

    /** A live line on stderr once a second. */
    private static final class Ticker implements AutoCloseable {
        private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "bench-progress");
            t.setDaemon(true);
            return t;
        });

        Ticker(java.util.function.Supplier<String> line) {
            timer.scheduleAtFixedRate(() -> System.err.println(line.get()), 1, 1, TimeUnit.SECONDS);
        }

        @Override
        public void close() {
            timer.shutdownNow();
        }
    }
}
