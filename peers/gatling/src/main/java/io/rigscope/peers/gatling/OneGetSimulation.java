package io.rigscope.peers.gatling;

import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.http.HttpDsl.http;

import io.gatling.javaapi.core.Simulation;
import io.gatling.javaapi.http.HttpProtocolBuilder;
import java.time.Duration;

/**
 * One step of {@code bench generator --vs-peers} as a Gatling simulation (Java DSL): {@code constantUsersPerSec}
 * at the step's rate for its length (evenly spaced arrivals, Gatling's default), each virtual user one
 * {@code GET} of the target; the HTTP protocol makes no warm-up request and, when
 * {@code -Drigscope.peer.share-connections=true} (the bench's "best" row), shares its keep-alive connections between
 * users ({@code shareConnections}); without it (Gatling's default, the "defaults" row) every new user opens a
 * connection of its own. The step's rate, length and URL come from system properties the driver sets before each
 * run.
 */
public final class OneGetSimulation extends Simulation {

    static final String URL = "rigscope.peer.url";
    static final String RATE = "rigscope.peer.rate";
    static final String MILLIS = "rigscope.peer.millis";
    static final String SHARE = "rigscope.peer.share-connections";

    public OneGetSimulation() {
        String url = System.getProperty(URL);
        double rate = Double.parseDouble(System.getProperty(RATE));
        long millis = Long.parseLong(System.getProperty(MILLIS));
        HttpProtocolBuilder protocol = http.baseUrl(url).disableWarmUp().disableCaching();
        if (Boolean.getBoolean(SHARE)) {
            protocol = protocol.shareConnections();
        }
        setUp(scenario("get").exec(http("get").get(url))
                .injectOpen(constantUsersPerSec(rate).during(Duration.ofMillis(millis))))
                .protocols(protocol);
    }
}
