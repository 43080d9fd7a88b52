package io.rigscope.collectors.aws;

import io.rigscope.model.topic.Topic;
import io.rigscope.collectors.Backoff;
import io.rigscope.collectors.CollectorContext;
import io.rigscope.collectors.Resilient;
import io.rigscope.model.wire.Waits;
import io.rigscope.model.wire.WireRecord;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;
import software.amazon.awssdk.services.pi.PiClient;
import software.amazon.awssdk.services.pi.model.DataPoint;
import software.amazon.awssdk.services.pi.model.DimensionGroup;
import software.amazon.awssdk.services.pi.model.GetResourceMetricsRequest;
import software.amazon.awssdk.services.pi.model.GetResourceMetricsResponse;
import software.amazon.awssdk.services.pi.model.MetricKeyDataPoints;
import software.amazon.awssdk.services.pi.model.MetricQuery;
import software.amazon.awssdk.services.pi.model.ServiceType;

/**
 * Performance Insights on {@code rig.waits}: every {@code poll}, GetResourceMetrics for {@code db.load.avg}
 * grouped by {@code db.wait_event} (up to 25 groups), PeriodInSeconds 1, over the seconds since the last
 * read up to {@code now - lag} (PI publishes with a short delay), following NextToken. Each second becomes one
 * {@link Waits} whose keys are {@code db.wait_event.type:db.wait_event.name} ({@code LWLock:WALWrite},
 * {@code IO:DataFileRead}); PI's CPU group is {@code CPU}. The ungrouped total series is not repeated, but a
 * second it has a value for and no group does is published with an empty load (0 active sessions, measured):
 * a quiet stretch reads as zero load, never as Performance Insights missing.
 * Failures: gap marker, retry with backoff from the same window start.
 */
public final class PerformanceInsightsCollector {

    /**
     * @param dbiResourceId the instance's resource id, PI's Identifier
     * @param since first second to read
     * @param poll time between reads
     * @param lag how far behind now the window ends
     */
    public record Config(String dbiResourceId, Instant since, Duration poll, Duration lag) {
        public Config {
            Objects.requireNonNull(dbiResourceId, "DbiResourceId (--dbi-resource-id)");
            since = (since == null ? Instant.now() : since).truncatedTo(ChronoUnit.SECONDS);
            poll = poll == null ? Duration.ofSeconds(10) : poll;
            lag = lag == null ? Duration.ofSeconds(5) : lag;
        }
    }

    private final Config config;
    private final AwsSettings aws;
    private final CollectorContext ctx;

    public PerformanceInsightsCollector(Config config, AwsSettings aws, CollectorContext ctx) {
        this.config = Objects.requireNonNull(config, "config");
        this.aws = Objects.requireNonNull(aws, "aws");
        this.ctx = Objects.requireNonNull(ctx, "ctx");
    }

    public String src() {
        return "pi@" + config.dbiResourceId();
    }

    /** A cold, endless Flux of per-second wait loads and gap markers. */
    public Flux<WireRecord> records() {
        return records(Schedulers.boundedElastic(), Backoff.defaults());
    }

    Flux<WireRecord> records(Scheduler io, Backoff backoff) {
        return Flux.using(() -> aws.build(PiClient.builder()), client -> {
            Instant[] from = {config.since()};
            return Resilient.forever(ctx, src(), Topic.WAITS, () -> Flux.interval(Duration.ZERO, config.poll(), io)
                    .onBackpressureDrop()
                    .concatMap(tick -> Mono.fromCallable(() -> read(client, from)))
                    .concatMapIterable(list -> list), backoff, io);
        }, PiClient::close);
    }

    private List<Waits> read(PiClient client, Instant[] from) {
        Instant to = ctx.clock().instant().minus(config.lag()).truncatedTo(ChronoUnit.SECONDS);
        if (!to.isAfter(from[0])) {
            return List.of();
        }
        Map<Instant, Map<String, Double>> bySecond = new TreeMap<>();
        String token = null;
        for (int page = 0; page < 100; page++) {
            GetResourceMetricsResponse resp = client.getResourceMetrics(GetResourceMetricsRequest.builder()
                    .serviceType(ServiceType.RDS).identifier(config.dbiResourceId())
                    .metricQueries(MetricQuery.builder().metric("db.load.avg")
                            .groupBy(DimensionGroup.builder().group("db.wait_event").limit(25).build()).build())
                    .startTime(from[0]).endTime(to).periodInSeconds(1).nextToken(token).build());
            for (MetricKeyDataPoints series : resp.metricList()) {
                Map<String, String> dims = series.key().dimensions();
                if (dims == null || dims.isEmpty()) {
                    // the ungrouped total: a second it has a value for was sampled, even with no session active
                    for (DataPoint p : series.dataPoints()) {
                        if (p.value() != null && p.timestamp() != null) {
                            bySecond.computeIfAbsent(p.timestamp(), t -> new TreeMap<>());
                        }
                    }
                    continue;
                }
                String name = dims.getOrDefault("db.wait_event.name", "unknown");
                String type = dims.getOrDefault("db.wait_event.type", "");
                String key = name.equals("CPU") || type.isEmpty() ? name : type + ":" + name;
                for (DataPoint p : series.dataPoints()) {
                    if (p.value() != null && p.timestamp() != null) {
                        bySecond.computeIfAbsent(p.timestamp(), t -> new TreeMap<>()).merge(key, p.value(), Double::sum);
                    }
                }
            }
            token = resp.nextToken();
            if (token == null || token.isEmpty()) {
                break;
            }
        }
        from[0] = to;
        List<Waits> out = new ArrayList<>();
        bySecond.forEach((t, load) -> out.add(new Waits(ctx.run(), ctx.rep(), src(),
                t.getEpochSecond() * 1_000_000L + t.getNano() / 1_000, 1, load)));
        return out;
    }
}
