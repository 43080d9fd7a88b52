package io.rigscope.sut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rigscope.localenv.testing.Postgres;
import io.rigscope.sut.auth.ApiKeys;
import io.rigscope.pg.PgUrl;
import io.rigscope.sut.ingest.EventWriter.InsertMode;
import io.rigscope.sut.schema.Provisioning;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.blockhound.BlockHound;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/** Every request path runs without a blocking call on a Netty or Reactor non-blocking thread. */
@Tag("it")
class SutEventLoopTest {

    @RegisterExtension
    static final Postgres pg = new Postgres();

    @Test
    void noRequestPathBlocksAnEventLoop() throws Exception {
        BlockHound.install();
        assertThatThrownBy(() -> Mono.delay(Duration.ofMillis(1)).doOnNext(x -> {
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }).block(Duration.ofSeconds(5))).as("BlockHound is active").hasMessageContaining("Blocking call");

        try {
            PgUrl owner = PgUrl.parse("--pg", pg.libpqUrl("postgres", "postgres"));
            Sut.start(SutConfig.defaults(owner).withMigrate(true)).close();
            HttpClient http = HttpClient.newHttpClient();
            for (InsertMode mode : InsertMode.values()) {
                try (RunningSut sut = Sut.start(SutConfig.defaults(owner).withInsert(mode)
                        .withTouch(ApiKeys.Touch.EVERY_REQUEST))) {
                    String body = "{\"events\":[{\"idempotency_key\":\"bh-" + mode + "\",\"customer_id\":\"c\","
                            + "\"meter\":\"api_calls\",\"quantity\":2,\"timestamp\":\"" + Instant.now() + "\"}]}";
                    for (String path : new String[] {"/v1/usage-events", "/v1/usage-events/aggregate?customer_id=c",
                        "/v1/customers", "/v1/invoices"}) {
                        var b = HttpRequest.newBuilder(sut.baseUri().resolve(path))
                                .header("Authorization", "Bearer " + Provisioning.DEMO_API_KEY)
                                .timeout(Duration.ofSeconds(20));
                        var req = path.equals("/v1/usage-events") ? b.POST(HttpRequest.BodyPublishers.ofString(body)).build()
                                : b.GET().build();
                        var res = http.send(req, HttpResponse.BodyHandlers.ofString());
                        assertThat(res.statusCode()).as(mode + " " + path + ": " + res.body()).isBetween(200, 299);
                    }
                    assertThat(sut.stats().failed()).isZero();
                }
            }
        } finally {
            Schedulers.resetOnScheduleHooks();
        }
    }
}
