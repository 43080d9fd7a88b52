package io.rigscope.collectors.aws;

import io.rigscope.model.topic.Topic;
import io.rigscope.collectors.Backoff;
import io.rigscope.collectors.CollectorContext;
import io.rigscope.collectors.Resilient;
import io.rigscope.model.wire.OsMetrics;
import io.rigscope.model.wire.WireRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;
import software.amazon.awssdk.services.cloudwatchlogs.CloudWatchLogsClient;
import software.amazon.awssdk.services.cloudwatchlogs.model.GetLogEventsRequest;
import software.amazon.awssdk.services.cloudwatchlogs.model.GetLogEventsResponse;
import software.amazon.awssdk.services.cloudwatchlogs.model.OutputLogEvent;

/**
 * RDS Enhanced Monitoring on {@code rig.os}: reads the instance's stream (named by its DbiResourceId) of the
 * CloudWatch Logs group {@code RDSOSMetrics} with GetLogEvents, oldest first from {@code since}, following
 * {@code nextForwardToken} until it stops changing, every {@code poll}. Each event is one EM document
 * ({@link EmDocuments}); an event that is not one is skipped and counted ({@link #skipped()}).
 * Failures: gap marker, retry with backoff from the last token (no event is read twice).
 */
public final class EnhancedMonitoringCollector {

    /** The log group RDS writes Enhanced Monitoring to. */
    public static final String LOG_GROUP = "RDSOSMetrics";

    /**
     * @param dbiResourceId the instance's resource id ({@code db-ABC...}), the log stream's name
     * @param since read events from this time on
     * @param poll time between reads
     */
    public record Config(String dbiResourceId, Instant since, Duration poll) {
        public Config {
            Objects.requireNonNull(dbiResourceId, "DbiResourceId (--dbi-resource-id)");
            since = since == null ? Instant.now() : since;
            poll = poll == null ? Duration.ofSeconds(5) : poll;
        }
    }

    private final Config config;
    private final CollectorContext ctx;
    private final AwsSettings aws;
    private final EmDocuments documents = new EmDocuments();
    private final java.util.concurrent.atomic.AtomicLong skipped = new java.util.concurrent.atomic.AtomicLong();

    public EnhancedMonitoringCollector(Config config, AwsSettings aws, CollectorContext ctx) {
        this.config = Objects.requireNonNull(config, "config");
        this.aws = Objects.requireNonNull(aws, "aws");
        this.ctx = Objects.requireNonNull(ctx, "ctx");
    }

    public String src() {
        return "em@" + config.dbiResourceId();
    }

    /** Events that were not Enhanced Monitoring documents. */
    public long skipped() {
        return skipped.get();
    }

    /** A cold, endless Flux of OS documents and gap markers. */
    public Flux<WireRecord> records() {
        return records(Schedulers.boundedElastic(), Backoff.defaults());
    }

    Flux<WireRecord> records(Scheduler io, Backoff backoff) {
        return Flux.using(() -> aws.build(CloudWatchLogsClient.builder()), client -> {
            String[] token = {null};
            return Resilient.forever(ctx, src(), Topic.OS, () -> Flux.interval(Duration.ZERO, config.poll(), io)
                    .onBackpressureDrop()
                    .concatMap(tick -> Mono.fromCallable(() -> readNew(client, token)))
                    .concatMapIterable(list -> list), backoff, io);
        }, CloudWatchLogsClient::close);
    }

    private List<OsMetrics> readNew(CloudWatchLogsClient client, String[] token) {
        List<OsMetrics> out = new ArrayList<>();
        for (int page = 0; page < 100; page++) {
            GetLogEventsRequest.Builder req = GetLogEventsRequest.builder().logGroupName(LOG_GROUP)
                    .logStreamName(config.dbiResourceId()).startFromHead(true);
            if (token[0] == null) {
                req.startTime(config.since().toEpochMilli());
            } else {
                req.nextToken(token[0]);
            }
            GetLogEventsResponse resp = client.getLogEvents(req.build());
            for (OutputLogEvent e : resp.events()) {
                try {
                    out.add(documents.parse(e.message(), ctx, src()));
                } catch (IllegalArgumentException bad) {
                    skipped.incrementAndGet();
                }
            }
            String next = resp.nextForwardToken();
            boolean same = next == null || next.equals(token[0]);
            token[0] = next == null ? token[0] : next;
            if (same || resp.events().isEmpty()) {
                break;
            }
        }
        return out;
    }
}
