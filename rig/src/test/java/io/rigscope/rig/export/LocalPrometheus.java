package io.rigscope.rig.export;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rigscope.localenv.net.LoopbackPorts;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real Prometheus (Debian's {@code prometheus} package) on a loopback port for a test: remote-write receiver and
 * native histograms on, no scrape target (so nothing but the test's samples reaches its head, and samples of a
 * recorded series, days old, are accepted: an empty head takes any time, then an hour either side of the newest).
 */
final class LocalPrometheus implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Process process;
    private final int port;
    private final HttpClient http = HttpClient.newHttpClient();

    private LocalPrometheus(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    /** The prometheus binary on the PATH, or null. */
    static Path binary() {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
            Path p = Path.of(dir, "prometheus");
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        return null;
    }

    /** Starts Prometheus with its TSDB and log in {@code dir}; returns once /-/ready answers 200. */
    static LocalPrometheus start(Path binary, Path dir) throws IOException, InterruptedException {
        int port = LoopbackPorts.free();
        Path config = dir.resolve("prometheus.yml");
        Files.writeString(config, "global:\n  scrape_interval: 1h\n");
        Process p = new ProcessBuilder(binary.toString(), "--config.file=" + config,
                "--storage.tsdb.path=" + dir.resolve("data"), "--web.listen-address=127.0.0.1:" + port,
                "--web.enable-remote-write-receiver", "--enable-feature=native-histograms")
                .redirectErrorStream(true).redirectOutput(dir.resolve("prometheus.log").toFile()).start();
        LocalPrometheus prom = new LocalPrometheus(p, port);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            if (!p.isAlive()) {
                throw new IllegalStateException("prometheus exited: " + Files.readString(dir.resolve("prometheus.log")));
            }
            try {
                if (prom.get("/-/ready").statusCode() == 200) {
                    return prom;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(100);
        }
        prom.close();
        throw new IllegalStateException("prometheus not ready in 30 s");
    }

    String writeUrl() {
        return "http://127.0.0.1:" + port + "/api/v1/write";
    }

    /** An instant query at {@code timeSec}: the result vector. */
    List<JsonNode> query(String promql, double timeSec) throws IOException, InterruptedException {
        return result("/api/v1/query?query=" + enc(promql) + "&time=" + timeSec);
    }

    /** A range query, step 1 s: the result matrix. */
    List<JsonNode> queryRange(String promql, long startSec, long endSec) throws IOException, InterruptedException {
        return result("/api/v1/query_range?query=" + enc(promql) + "&start=" + startSec + "&end=" + endSec
                + "&step=1");
    }

    private List<JsonNode> result(String path) throws IOException, InterruptedException {
        HttpResponse<String> r = get(path);
        JsonNode body = JSON.readTree(r.body());
        if (r.statusCode() != 200 || !"success".equals(body.path("status").asText())) {
            throw new IllegalStateException(path + ": HTTP " + r.statusCode() + " " + r.body());
        }
        return List.copyOf(JSON.convertValue(body.path("data").path("result"),
                JSON.getTypeFactory().constructCollectionType(List.class, JsonNode.class)));
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
    }
}
