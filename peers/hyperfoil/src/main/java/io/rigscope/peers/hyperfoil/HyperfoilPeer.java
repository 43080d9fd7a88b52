package io.rigscope.peers.hyperfoil;

import static io.hyperfoil.http.steps.HttpStepCatalog.SC;

import io.hyperfoil.api.Version;
import io.hyperfoil.api.config.Benchmark;
import io.hyperfoil.api.config.BenchmarkBuilder;
import io.hyperfoil.api.config.Phase;
import io.hyperfoil.api.config.PhaseBuilder;
import io.hyperfoil.api.config.SessionLimitPolicy;
import io.hyperfoil.api.session.PhaseInstance;
import io.hyperfoil.api.statistics.StatisticsSnapshot;
import io.hyperfoil.core.impl.LocalSimulationRunner;
import io.hyperfoil.http.api.HttpMethod;
import io.hyperfoil.http.config.HttpBuilder;
import io.hyperfoil.http.config.HttpPluginBuilder;
import io.rigscope.peers.PeerDriver;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Hyperfoil in {@code bench generator --vs-peers}: each step is one benchmark run in this JVM
 * ({@link LocalSimulationRunner}) with one phase, {@code constantRate} at the step's rate for its length, with
 * {@code variance(false)} (evenly spaced session starts, as rigscope's schedule; Hyperfoil's default is a
 * Poisson process), each session one {@code GET} (Hyperfoil's {@code httpRequest} step). Settings, the same
 * for every step, each left at Hyperfoil's own default unless its property is set (the bench's "defaults" row sets
 * none): {@code threads} event loops ({@code -Drigscope.peer.threads}), {@code sharedConnections} keep-alive
 * HTTP/1.1 connections ({@code -Drigscope.peer.connections}), at most {@code maxSessions} sessions at once
 * ({@code -Drigscope.peer.max-in-flight}; Hyperfoil's default: the rate), {@code sessionLimitPolicy}
 * ({@code -Drigscope.peer.session-limit-policy}, e.g. {@link SessionLimitPolicy#CONTINUE}: a session due while all
 * are busy starts late; Hyperfoil's default FAIL ends the phase) and {@code variance}
 * ({@code -Drigscope.peer.variance}; false: evenly spaced starts; Hyperfoil's default true). The step reports
 * {@code capped=true} when the session limit was hit. Its figures are Hyperfoil's own statistics:
 * requests, responses, errors (invalid responses, connection errors, timeouts, internal errors), blocked time
 * and the response-time histogram (p50, p99, max).
 */
public final class HyperfoilPeer extends PeerDriver {

    private final Integer threads = Integer.getInteger("rigscope.peer.threads");
    private final Integer connections = Integer.getInteger("rigscope.peer.connections");
    private final Integer maxSessions = Integer.getInteger("rigscope.peer.max-in-flight");
    private final String limitPolicy = System.getProperty("rigscope.peer.session-limit-policy");
    private final String variance = System.getProperty("rigscope.peer.variance");

    public static void main(String[] args) {
        serve(new HyperfoilPeer(), args);
    }

    @Override
    protected String tool() {
        return "hyperfoil";
    }

    @Override
    protected String version() {
        return Version.VERSION;
    }

    @Override
    protected Result step(String url, double rate, Duration length, Runnable ended) {
        URI target = URI.create(url);
        BenchmarkBuilder builder = BenchmarkBuilder.builder().name("rigscope-peer-step");
        if (threads != null) {
            builder.threads(threads);
        }
        HttpBuilder http = builder.addPlugin(HttpPluginBuilder::new).http()
                .host(target.getHost()).port(target.getPort());
        if (connections != null) {
            http.sharedConnections(connections);
        }
        PhaseBuilder.ConstantRate load = builder.addPhase("load").constantRate(0).usersPerSec(rate);
        if (variance != null) {
            load.variance(Boolean.parseBoolean(variance));
        }
        if (maxSessions != null) {
            load.maxSessions(maxSessions);
        }
        if (limitPolicy != null) {
            load.sessionLimitPolicy(SessionLimitPolicy.valueOf(limitPolicy));
        }
        load.duration(length.toMillis())
                .scenario()
                .initialSequence("get")
                .step(SC).httpRequest(HttpMethod.GET).path(target.getRawPath().isEmpty() ? "/" : target.getRawPath())
                .timeout("10s")
                .endStep()
                .endSequence();
        Benchmark benchmark = builder.build();
        StatisticsSnapshot total = new StatisticsSnapshot();
        AtomicBoolean limitExceeded = new AtomicBoolean();
        LocalSimulationRunner runner = new LocalSimulationRunner(benchmark,
                (phase, stepId, metric, snapshot, countDown) -> {
                    synchronized (total) {
                        total.add(snapshot);
                    }
                }, null, null) {
            @Override
            protected CompletableFuture<Void> phaseChanged(Phase phase, PhaseInstance.Status status,
                                                           boolean sessionLimitExceeded, Throwable error) {
                if (sessionLimitExceeded) {
                    limitExceeded.set(true);
                }
                return super.phaseChanged(phase, status, sessionLimitExceeded, error);
            }
        };
        runner.run();
        ended.run();
        synchronized (total) {
            long errors = (long) total.invalid + total.connectionErrors + total.requestTimeouts + total.internalErrors;
            Result r = new Result()
                    .put("sent", total.requestCount)
                    .put("responses", total.responseCount)
                    .put("errors", errors)
                    .put("capped", limitExceeded.get())
                    .put("blocked_ms", total.blockedTime / 1_000_000.0);
            if (total.histogram.getTotalCount() > 0) {
                r.put("p50_ms", total.histogram.getValueAtPercentile(50) / 1e6)
                        .put("p99_ms", total.histogram.getValueAtPercentile(99) / 1e6)
                        .put("max_ms", total.histogram.getMaxValue() / 1e6);
            }
            return r.put("latency", "response_time");
        }
    }
}
