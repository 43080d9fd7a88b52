package io.rigscope.collectors.aws;

import io.rigscope.model.topic.Topic;
import io.rigscope.collectors.Backoff;
import io.rigscope.collectors.CollectorContext;
import io.rigscope.collectors.Resilient;
import io.rigscope.model.wire.CloudWatchPoint;
import io.rigscope.model.wire.WireRecord;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;
import software.amazon.awssdk.services.cloudwatch.CloudWatchClient;
import software.amazon.awssdk.services.cloudwatch.model.Dimension;
import software.amazon.awssdk.services.cloudwatch.model.GetMetricDataRequest;
import software.amazon.awssdk.services.cloudwatch.model.GetMetricDataResponse;
import software.amazon.awssdk.services.cloudwatch.model.Metric;
import software.amazon.awssdk.services.cloudwatch.model.MetricDataQuery;
import software.amazon.awssdk.services.cloudwatch.model.MetricDataResult;
import software.amazon.awssdk.services.cloudwatch.model.MetricStat;
import software.amazon.awssdk.services.cloudwatch.model.ScanBy;

/**
 * CloudWatch on {@code rig.cloudwatch}: every {@code poll} (60 s), GetMetricData for the instance's
 * {@code AWS/RDS} metrics (default WriteIOPS, ReadIOPS, DiskQueueDepth, WriteThroughput, CPUUtilization,
 * FreeableMemory), statistic Average, period 60 s, over {@code [last read, now]}, following NextToken. Each
 * datapoint not published before becomes one {@link CloudWatchPoint}, stamped with its period's start.
 * Failures: gap marker, retry with backoff over the same window.
 */
public final class CloudWatchCollector {

    /** The metrics read by default, with their CloudWatch units ({@link RdsMetricUnits}). */
    public static final Map<String, String> DEFAULT_METRICS = RdsMetricUnits.of("WriteIOPS", "ReadIOPS",
            "DiskQueueDepth", "WriteThroughput", "CPUUtilization", "FreeableMemory");

    /**
     * @param dbInstanceIdentifier the instance's identifier (the DBInstanceIdentifier dimension)
     * @param metrics metric name -> unit
     * @param since first period to read
     * @param poll time between reads
     */
    public record Config(String dbInstanceIdentifier, Map<String, String> metrics, Instant since, Duration poll) {
        public Config {
            Objects.requireNonNull(dbInstanceIdentifier, "DB instance identifier (--db-instance)");
            metrics = metrics == null || metrics.isEmpty() ? DEFAULT_METRICS : Map.copyOf(metrics);
            since = (since == null ? Instant.now().minus(Duration.ofMinutes(5)) : since).truncatedTo(ChronoUnit.MINUTES);
            poll = poll == null ? Duration.ofSeconds(60) : poll;
        }
    }

    private final Config config;
    private final AwsSettings aws;
    private final CollectorContext ctx;

    public CloudWatchCollector(Config config, AwsSettings aws, CollectorContext ctx) {
        this.config = Objects.requireNonNull(config, "config");
        this.aws = Objects.requireNonNull(aws, "aws");
        this.ctx = Objects.requireNonNull(ctx, "ctx");
    }

    public String src() {
        return "cloudwatch@" + config.dbInstanceIdentifier();
    }

    /** A cold, endless Flux of datapoints and gap markers. */
    public Flux<WireRecord> records() {
        return records(Schedulers.boundedElastic(), Backoff.defaults());
    }

    Flux<WireRecord> records(Scheduler io, Backoff backoff) {
        return Flux.using(() -> aws.build(CloudWatchClient.builder()), client -> {
            Map<String, Instant> lastByMetric = new HashMap<>();
            return Resilient.forever(ctx, src(), Topic.CLOUDWATCH, () -> Flux.interval(Duration.ZERO, config.poll(), io)
                    .onBackpressureDrop()
                    .concatMap(tick -> Mono.fromCallable(() -> read(client, lastByMetric)))
                    .concatMapIterable(list -> list), backoff, io);
        }, CloudWatchClient::close);
    }

    private List<CloudWatchPoint> read(CloudWatchClient client, Map<String, Instant> last) {
        List<String> names = new ArrayList<>(config.metrics().keySet());
        names.sort(null);
        List<MetricDataQuery> queries = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            queries.add(MetricDataQuery.builder().id("m" + i).label(names.get(i)).returnData(true)
                    .metricStat(MetricStat.builder().stat("Average").period(60)
                            .metric(Metric.builder().namespace("AWS/RDS").metricName(names.get(i))
                                    .dimensions(Dimension.builder().name("DBInstanceIdentifier")
                                            .value(config.dbInstanceIdentifier()).build()).build()).build()).build());
        }
        Instant from = last.values().stream().min(Instant::compareTo).orElse(config.since());
        Instant to = ctx.clock().instant();
        List<CloudWatchPoint> out = new ArrayList<>();
        String token = null;
        for (int page = 0; page < 100; page++) {
            GetMetricDataResponse resp = client.getMetricData(GetMetricDataRequest.builder().metricDataQueries(queries)
                    .startTime(from).endTime(to).scanBy(ScanBy.TIMESTAMP_ASCENDING).nextToken(token).build());
            for (MetricDataResult r : resp.metricDataResults()) {
                int index = Integer.parseInt(r.id().substring(1));
                String metric = names.get(index);
                for (int k = 0; k < r.timestamps().size() && k < r.values().size(); k++) {
                    Instant t = r.timestamps().get(k);
                    Instant seen = last.get(metric);
                    if (seen != null && !t.isAfter(seen)) {
                        continue;
                    }
                    out.add(new CloudWatchPoint(ctx.run(), ctx.rep(), src(), t.getEpochSecond() * 1_000_000L,
                            "AWS/RDS", metric, Map.of("DBInstanceIdentifier", config.dbInstanceIdentifier()),
                            "Average", 60, r.values().get(k), config.metrics().get(metric)));
                }
            }
            token = resp.nextToken();
            if (token == null || token.isEmpty()) {
                break;
            }
        }
        for (CloudWatchPoint p : out) {
            Instant t = Instant.ofEpochSecond(p.ts() / 1_000_000L);
            last.merge(p.metric(), t, (a, b) -> a.isAfter(b) ? a : b);
        }
        out.sort(java.util.Comparator.comparingLong(CloudWatchPoint::ts));
        return out;
    }
}
