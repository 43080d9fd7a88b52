package io.rigscope.peers;

import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The side of a load tool in {@code rigscope bench generator --vs-peers}: a JVM of its own that loads one target
 * at the rates the bench asks for, one step at a time, over a line protocol on stdin/stdout (stdout carries the
 * protocol only; everything else the tool prints goes to stderr):
 *
 * <pre>
 *   tool  -> bench   ready tool=NAME version=V
 *   bench -> tool    step RATE MILLIS          (open loop: RATE requests/s for MILLIS)
 *   tool  -> bench   ended                     (the load is over and every request has ended)
 *   tool  -> bench   result key=value ...      (the tool's own figures: sent, errors, capped, p50_ms ...)
 *                    or error MESSAGE
 *   bench -> tool    quit
 * </pre>
 *
 * The bench reads the tool's process CPU between {@code step} and {@code ended}; {@code result} may take longer
 * (a tool that computes its figures after the load does it outside the measured CPU).
 */
public abstract class PeerDriver {

    /** What one step reports back: the tool's own counts and latency figures, as key=value tokens. */
    public static final class Result {
        private final Map<String, String> values = new LinkedHashMap<>();

        public Result put(String key, Object value) {
            String text = value instanceof Double d ? String.format(Locale.ROOT, "%.4f", d) : String.valueOf(value);
            values.put(key, text.replace(' ', '_'));
            return this;
        }

        String line() {
            StringBuilder b = new StringBuilder("result");
            values.forEach((k, v) -> b.append(' ').append(k).append('=').append(v));
            return b.toString();
        }
    }

    /** The tool's name, e.g. {@code hyperfoil}. */
    protected abstract String tool();

    /** The tool's version, as its own jar says. */
    protected abstract String version();

    /**
     * Offers {@code rate} requests/s of {@code GET url} for {@code length}, open loop; calls {@code ended} once the
     * load is over and every request has ended, then returns the tool's figures.
     */
    protected abstract Result step(String url, double rate, Duration length, Runnable ended) throws Exception;

    /** Called once the protocol ended ({@code quit} or the end of stdin), before the JVM exits; releases the tool. */
    protected void close() throws Exception {
    }

    /**
     * Runs the protocol on stdin/stdout until {@code quit} or the end of stdin. {@code args[0]} is the target URL.
     * System.out is pointed at stderr first, so nothing the tool prints can break the protocol.
     */
    public static void serve(PeerDriver driver, String[] args) {
        PrintStream protocol = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
        System.setOut(System.err);
        if (args.length != 1) {
            protocol.println("error usage: <driver> URL");
            System.exit(2);
        }
        String url = args[0];
        try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
            protocol.println("ready tool=" + driver.tool() + " version=" + driver.version());
            String line;
            while ((line = in.readLine()) != null) {
                String[] f = line.strip().split("\\s+");
                if (f[0].equals("quit")) {
                    break;
                }
                if (!f[0].equals("step") || f.length != 3) {
                    protocol.println("error unknown command: " + line);
                    continue;
                }
                try {
                    double rate = Double.parseDouble(f[1]);
                    Duration length = Duration.ofMillis(Long.parseLong(f[2]));
                    boolean[] saidEnded = {false};
                    Result r = driver.step(url, rate, length, () -> {
                        saidEnded[0] = true;
                        protocol.println("ended");
                    });
                    if (!saidEnded[0]) {
                        protocol.println("ended");
                    }
                    protocol.println(r.line());
                } catch (Exception | LinkageError e) {
                    e.printStackTrace(System.err);
                    protocol.println("ended");
                    protocol.println(("error " + e).replace('\n', ' '));
                }
            }
        } catch (Exception e) {
            e.printStackTrace(System.err);
            protocol.println(("error " + e).replace('\n', ' '));
        }
        try {
            driver.close();
        } catch (Exception e) {
            e.printStackTrace(System.err);
        }
        System.exit(0);
    }

    /** The Implementation-Version in the manifest of the jar that holds {@code c}, or "unknown". */
    protected static String jarVersion(Class<?> c) {
        Package p = c.getPackage();
        String v = p == null ? null : p.getImplementationVersion();
        if (v != null) {
            return v;
        }
        try {
            var location = c.getProtectionDomain().getCodeSource().getLocation();
            try (var jar = new java.util.jar.JarFile(new java.io.File(location.toURI()))) {
                var manifest = jar.getManifest();
                v = manifest == null ? null : manifest.getMainAttributes().getValue("Implementation-Version");
            }
        } catch (Exception e) {
            v = null;
        }
        return v == null ? "unknown" : v;
    }
}
