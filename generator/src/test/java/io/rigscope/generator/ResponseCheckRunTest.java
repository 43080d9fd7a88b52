package io.rigscope.generator;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.generator.plan.LoadPlan;
import io.rigscope.generator.plan.LoopMode;
import io.rigscope.generator.plan.ResponseCheck;
import io.rigscope.generator.plan.ResponseCheck.JsonCheck;
import io.rigscope.generator.plan.Scenario;
import io.rigscope.model.wire.ErrorKind;
import io.rigscope.model.wire.Marker;
import io.rigscope.model.wire.Sample;
import io.rigscope.model.wire.SampleBatch;
import io.rigscope.model.wire.WireRecord;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Response checks through whole runs against a real loopback server: a response that fails its scenario's check is a
 * failed request of kind {@code check} (a status >= 400 the check does not accept stays {@code 4xx}/{@code 5xx}),
 * with the status it had; a scenario without a check is judged by its status alone, as before.
 */
@Tag("it")
class ResponseCheckRunTest {

    private static final int BIG_BYTES = 100 * 1024;
    private static final Queue<String> HEADS = new ConcurrentLinkedQueue<>();
    private static ScriptedServer server;

    @BeforeAll
    static void startServer() throws Exception {
        server = new ScriptedServer(c -> {
            String head;
            while ((head = c.readRequest()) != null) {
                HEADS.add(head);
                String path = head.substring(head.indexOf(' ') + 1, head.indexOf(" HTTP/"));
                c.write(answer(path));
            }
        });
    }

    @AfterAll
    static void stopServer() throws Exception {
        server.close();
    }

    private static String answer(String path) {
        return switch (path) {
            case "/errors" -> response(200, "{\"errors\":[{\"message\":\"boom\"}],\"data\":null}");
            case "/data" -> response(200, "{\"data\":{\"e0\":{\"id\":7,\"name\":\"x\"}}}");
            case "/created" -> response(201, "{}");
            case "/missing" -> response(404, "{\"error\":\"no such thing\"}");
            case "/broken" -> response(500, "{\"errors\":[\"down\"]}");
            case "/moved" -> "HTTP/1.1 302 Found\r\nLocation: /data\r\nContent-Length: 0\r\n\r\n";
            case "/big" -> response(200, "{\"ok\":\"" + "x".repeat(BIG_BYTES) + "\",\"errors\":[1]}");
            case "/big-clean" -> response(200, "{\"ok\":\"" + "x".repeat(BIG_BYTES) + "\"}");
            default -> response(200, "ok");
        };
    }

    private static String response(int status, String body) {
        return "HTTP/1.1 " + status + " X\r\nContent-Type: application/json\r\nContent-Length: "
                + body.getBytes(StandardCharsets.ISO_8859_1).length + "\r\n\r\n" + body;
    }

    private record Run(RunSummary summary, List<WireRecord> records) {
        List<Sample> samples(String scenario) {
            return records.stream().filter(r -> r instanceof SampleBatch).flatMap(r -> ((SampleBatch) r).samples().stream())
                    .filter(s -> s.scenario().equals(scenario)).toList();
        }
    }

    private static Run run(GeneratorOptions options, Scenario... scenarios) {
        List<WireRecord> records = new CopyOnWriteArrayList<>();
        RunSummary summary = new Generator(records::add, options)
                .run(new LoadPlan("chk-" + UUID.randomUUID().toString().substring(0, 8), 0, "gen-1", null, LoopMode.OPEN,
                        Duration.ofMillis(400), List.of(scenarios), null))
                .block(Duration.ofSeconds(30));
        return new Run(summary, records);
    }

    private static Run run(Scenario... scenarios) {
        return run(GeneratorOptions.defaults().withIoThreads(1), scenarios);
    }

    private static Scenario get(String name, String path, ResponseCheck check) {
        return new Scenario(name, "GET", URI.create(server.url(path)), Map.of(), 25, 4, Duration.ofSeconds(5), null, check);
    }

    /** Every sample of {@code scenario} has this status and kind, there are some, and the summary counts the failures. */
    private static void assertAll(Run run, String scenario, int status, ErrorKind kind) {
        List<Sample> samples = run.samples(scenario);
        assertThat(samples).as(scenario).isNotEmpty();
        assertThat(samples).as(scenario).allSatisfy(s -> {
            assertThat(s.status()).isEqualTo(status);
            assertThat(s.err()).isEqualTo(kind);
        });
        ScenarioSummary summary = run.summary().scenario(scenario);
        assertThat(summary.completed()).as(scenario + " completed").isEqualTo(samples.size());
        assertThat(summary.failed()).as(scenario + " failed").isEqualTo(kind == ErrorKind.NONE ? 0 : samples.size());
    }

    @Test
    void aTwoHundredWhoseBodyHoldsErrorsFailsBodyNotContainsAndCountsAsAFailedCheck() {
        Run run = run(get("checked", "/errors", new ResponseCheck(null, null, "\"errors\"", null)),
                get("unchecked", "/errors", null));

        assertAll(run, "checked", 200, ErrorKind.CHECK);
        assertAll(run, "unchecked", 200, ErrorKind.NONE);
    }

    @Test
    void aJsonCheckPassesWhenTheValueExistsOrEqualsAndFailsOtherwise() {
        Run run = run(get("exists", "/data", new ResponseCheck(null, null, null, new JsonCheck("$.data.e0", true, null))),
                get("absent", "/data", new ResponseCheck(null, null, null, new JsonCheck("$.data.e1", true, null))),
                get("equal", "/data", new ResponseCheck(null, null, null, new JsonCheck("$.data.e0.id", null, 7))),
                get("unequal", "/data", new ResponseCheck(null, null, null, new JsonCheck("$.data.e0.name", null, "y"))),
                get("graphql", "/errors", new ResponseCheck(null, null, null, new JsonCheck("$.errors", false, null))));

        assertAll(run, "exists", 200, ErrorKind.NONE);
        assertAll(run, "absent", 200, ErrorKind.CHECK);
        assertAll(run, "equal", 200, ErrorKind.NONE);
        assertAll(run, "unequal", 200, ErrorKind.CHECK);
        assertAll(run, "graphql", 200, ErrorKind.CHECK);
    }

    @Test
    void aStatusOutsideTheListIsACheckFailureBelow400AndKeeps4xxOr5xxFromThere() {
        ResponseCheck only200 = new ResponseCheck(List.of(200), null, null, null);
        Run run = run(get("created", "/created", only200),
                get("missing", "/missing", only200),
                get("broken", "/broken", only200),
                get("missing-expected", "/missing", new ResponseCheck(List.of(404), "no such", null, null)),
                get("moved-default", "/moved", new ResponseCheck(null, null, null, null)),
                get("moved-unchecked", "/moved", null));

        assertAll(run, "created", 201, ErrorKind.CHECK);
        assertAll(run, "missing", 404, ErrorKind.HTTP_4XX);
        assertAll(run, "broken", 500, ErrorKind.HTTP_5XX);
        assertAll(run, "missing-expected", 404, ErrorKind.NONE);
        assertAll(run, "moved-default", 302, ErrorKind.CHECK);
        assertAll(run, "moved-unchecked", 302, ErrorKind.NONE);
    }

    @Test
    void aBodyLongerThanTheCapIsCheckedOnItsKeptPartAndBodyNotContainsThenFails() {
        long connectionsBefore = server.connections.get();
        Run capped = run(get("not-contains", "/big-clean", new ResponseCheck(null, null, "errors", null)),
                get("contains", "/big", new ResponseCheck(null, "{\"ok\":\"xxx", null, null)),
                get("json", "/big-clean", new ResponseCheck(null, null, null, new JsonCheck("$.ok", true, null))));

        assertAll(capped, "not-contains", 200, ErrorKind.CHECK); // 64 KiB kept of 100: cannot tell, so it fails
        assertAll(capped, "contains", 200, ErrorKind.NONE);
        assertAll(capped, "json", 200, ErrorKind.CHECK);
        // the rest of each body was read past, not left on the connection: keep-alive carried on
        long requests = capped.summary().scenario("not-contains").sent() + capped.summary().scenario("contains").sent()
                + capped.summary().scenario("json").sent();
        assertThat(server.connections.get() - connectionsBefore).isLessThan(requests);

        Run whole = run(GeneratorOptions.defaults().withIoThreads(1).withCheckBodyCapBytes(2 * BIG_BYTES),
                get("clean", "/big-clean", new ResponseCheck(null, null, "errors", null)),
                get("dirty", "/big", new ResponseCheck(null, null, "errors", null)),
                get("json", "/big-clean", new ResponseCheck(null, null, null, new JsonCheck("$.ok", true, null))));

        assertAll(whole, "clean", 200, ErrorKind.NONE);
        assertAll(whole, "dirty", 200, ErrorKind.CHECK);
        assertAll(whole, "json", 200, ErrorKind.NONE);
    }

    @Test
    void aScenarioWithoutACheckIsJudgedByItsStatusAsBefore() {
        Run run = run(get("ok", "/errors", null), get("missing", "/missing", null), get("broken", "/broken", null));

        assertAll(run, "ok", 200, ErrorKind.NONE);
        assertAll(run, "missing", 404, ErrorKind.HTTP_4XX);
        assertAll(run, "broken", 500, ErrorKind.HTTP_5XX);
    }

    @Test
    void anEnvironmentValueInAHeaderIsSentButTheConfigMarkerKeepsTheTemplate() {
        String variable = System.getenv("HOME") != null ? "HOME" : "PATH";
        Scenario s = new Scenario("env", "GET", URI.create(server.url("/env")), Map.of("X-Env", "v=${env:" + variable + "}"),
                25, 2, Duration.ofSeconds(5), null, null);
        HEADS.clear();

        Run run = run(s);

        assertThat(run.samples("env")).isNotEmpty();
        assertThat(HEADS).filteredOn(h -> h.startsWith("GET /env ")).isNotEmpty()
                .allSatisfy(h -> assertThat(h).contains("X-Env: v=" + System.getenv(variable) + "\r\n"));
        Marker config = run.records().stream().filter(r -> r instanceof Marker m && m.kind() == Marker.Kind.CONFIG).map(Marker.class::cast).findFirst().orElseThrow();
        assertThat(((io.rigscope.model.wire.Config) config.body()).settings().toString()).contains("v=${env:" + variable + "}");
    }
}
