package io.rigscope.rig.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.rigscope.localenv.kafka.EmbeddedKafka;
import io.rigscope.localenv.testing.Postgres;
import io.rigscope.model.topic.Topic;
import io.rigscope.rig.cli.RigscopeRun;
import io.rigscope.wire.kafka.TopicAdmin;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A series run with known secrets (the database password in the URL, the SUT app role's password, the API key, the
 * dashboard token, fake AWS keys in the SDK's credential chain), then every output grepped for them: the console, the
 * report files, the wire file, every topic of its own broker (the DLQ too, raw bytes), the broker's log, the SUT's
 * log and PostgreSQL's log. The AWS keys are exercised by {@code rigscope collect cloudwatch,...} against a local
 * endpoint that refuses them as AWS does (403 InvalidClientTokenId), so they travel in signed requests and the
 * refusals reach gap markers.
 */
@Tag("it")
class SecretsNeverLeakTest {

    private static final String DB_PASSWORD = "db-Pw-5f3a9c1e77";
    private static final String APP_PASSWORD = "app-Pw-0b6d2e84c3";
    private static final String API_KEY = "rk-live-7d41e9b2a6c058f3";
    private static final String DASHBOARD_TOKEN = "dash-Tok-93c7e1a4f2";
    private static final String AWS_ACCESS_KEY = "AKIAFAKE7Q2N4RIGSCOPE";
    private static final String AWS_SECRET_KEY = "wJalrFAKEsecretKEY/rigscope+9a8b7c6d5e4f";
    private static final String AWS_SESSION_TOKEN = "FwoGZXIvYXdzFAKEsessionTOKENrigscope42";
    private static final List<String> SECRETS = List.of(DB_PASSWORD, APP_PASSWORD, API_KEY, DASHBOARD_TOKEN,
            AWS_ACCESS_KEY, AWS_SECRET_KEY, AWS_SESSION_TOKEN);

    @RegisterExtension
    static final Postgres pg = new Postgres();
    @TempDir
    static Path dir;
    static EmbeddedKafka kafka;
    static HttpServer aws;
    static final List<String> awsRequestsWithTheKey = new ArrayList<>();

    @BeforeAll
    static void startBrokerAndAws() throws IOException {
        kafka = EmbeddedKafka.start(dir.resolve("kafka"), 0);
        try (TopicAdmin admin = new TopicAdmin(kafka.bootstrap())) {
            admin.ensureTopics();
        }
        aws = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        aws.createContext("/", exchange -> {
            String auth = exchange.getRequestHeaders().getFirst("Authorization");
            if (auth != null && auth.contains(AWS_ACCESS_KEY)) {
                synchronized (awsRequestsWithTheKey) {
                    awsRequestsWithTheKey.add(exchange.getRequestURI().toString());
                }
            }
            exchange.getRequestBody().readAllBytes();
            byte[] body = ("{\"__type\":\"InvalidClientTokenId\",\"message\":\"The security token included in the "
                    + "request is invalid.\"}").getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/x-amz-json-1.0");
            exchange.getResponseHeaders().add("x-amzn-ErrorType", "InvalidClientTokenId");
            exchange.sendResponseHeaders(403, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        aws.start();
        System.setProperty("aws.accessKeyId", AWS_ACCESS_KEY);
        System.setProperty("aws.secretAccessKey", AWS_SECRET_KEY);
        System.setProperty("aws.sessionToken", AWS_SESSION_TOKEN);
    }

    @AfterAll
    static void stop() {
        System.clearProperty("aws.accessKeyId");
        System.clearProperty("aws.secretAccessKey");
        System.clearProperty("aws.sessionToken");
        if (aws != null) {
            aws.stop(0);
        }
        if (kafka != null) {
            kafka.close();
        }
    }

    @Test
    void noSecretGivenToASeriesAppearsInAnyOutput() throws Exception {
        String database = pg.libpqUrl("postgres", "postgres").replace("postgres@", "postgres:" + DB_PASSWORD + "@");
        Path config = dir.resolve("series.yaml");
        Files.writeString(config, "target: {api_key: " + API_KEY + "}\n"
                + "database: '" + database + "'\n"
                + "sut: {app_password: " + APP_PASSWORD + "}\n"
                + "sustained: {rate: 20, repeats: 1, duration: 3s, cooldown: 0s}\n"
                + "load: {probe_rate: 0}\n");
        String series = "secrets-1";
        Path out = dir.resolve("outputs");
        Files.createDirectories(out);
        RigscopeRun run = RigscopeRun.rigscope("run", "--config", config.toString(), "--allow", "--series", series,
                "--bootstrap", kafka.bootstrap(), "--report-json", out.resolve("r.json").toString(),
                "--report-md", out.resolve("r.md").toString(), "--report-html", out.resolve("r.html").toString(),
                "--out", out.resolve("wire.jsonl").toString(), "--dashboard", "127.0.0.1:0",
                "--dashboard-token", DASHBOARD_TOKEN);
        assertThat(run.exit()).as(run.out() + run.err()).isIn(0, 99);
        assertThat(run.out()).contains("database gained").contains("?token=...");

        RigscopeRun collect = RigscopeRun.rigscope("collect", "cloudwatch", "--series", series, "--duration", "4s",
                "--bootstrap", kafka.bootstrap(), "--aws-endpoint", "http://127.0.0.1:" + aws.getAddress().getPort(),
                "--region", "us-east-1", "--db-instance", "db-secrets", "--out", out.resolve("collect.jsonl").toString());
        assertThat(collect.exit()).as(collect.out() + collect.err()).isEqualTo(0);
        synchronized (awsRequestsWithTheKey) {
            assertThat(awsRequestsWithTheKey).as("the AWS SDK signed requests with the fake key").isNotEmpty();
        }

        Map<String, String> outputs = new java.util.LinkedHashMap<>();
        outputs.put("run console", run.out() + run.err());
        outputs.put("collect console", collect.out() + collect.err());
        try (Stream<Path> files = Files.list(out)) {
            for (Path f : files.toList()) {
                outputs.put(f.getFileName().toString(), Files.readString(f));
            }
        }
        for (Path log : logFilesNamedIn(run.out())) {
            outputs.put(log.toString(), Files.readString(log));
        }
        outputs.put("broker.log", Files.readString(kafka.logFile()));
        outputs.put("postgresql.log", Files.readString(pg.cluster().logFile()));
        for (Topic topic : Topic.values()) {
            outputs.put(topic.topicName(), everyValueOf(topic));
        }

        assertThat(outputs.get("rig.samples")).isNotEmpty();
        assertThat(outputs.get("rig.markers")).contains("\"GAP\"").contains("cloudwatch");
        assertThat(outputs.keySet()).contains("r.json", "r.md", "r.html", "wire.jsonl", "collect.jsonl");
        for (var e : outputs.entrySet()) {
            for (String secret : SECRETS) {
                assertThat(e.getValue()).as("%s must not contain a secret", e.getKey()).doesNotContain(secret);
            }
        }
    }

    /** The SUT's log files the console names ({@code log /tmp/rigscope-sut-....log}). */
    private static List<Path> logFilesNamedIn(String console) {
        List<Path> out = new ArrayList<>();
        Matcher m = Pattern.compile("(/\\S*rigscope-sut-\\d+\\.log)").matcher(console);
        while (m.find()) {
            Path p = Path.of(m.group(1));
            if (Files.exists(p) && !out.contains(p)) {
                out.add(p);
            }
        }
        assertThat(out).as("the SUT's log named on the console").isNotEmpty();
        return out;
    }

    /** Every key and value on the topic, raw, as text. */
    private static String everyValueOf(Topic topic) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrap());
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        StringBuilder text = new StringBuilder();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> parts = consumer.partitionsFor(topic.topicName(), Duration.ofSeconds(30)).stream()
                    .map(i -> new TopicPartition(i.topic(), i.partition())).toList();
            consumer.assign(parts);
            consumer.seekToBeginning(parts);
            Map<TopicPartition, Long> end = consumer.endOffsets(parts, Duration.ofSeconds(30));
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (parts.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp)) && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    if (r.key() != null) {
                        text.append(new String(r.key(), StandardCharsets.UTF_8));
                    }
                    if (r.value() != null) {
                        text.append(new String(r.value(), StandardCharsets.ISO_8859_1)).append('\n');
                    }
                }
            }
        }
        return text.toString();
    }
}
