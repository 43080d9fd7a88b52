package io.rigscope.collectors.aws;

import io.rigscope.model.topic.Topic;
import io.rigscope.collectors.Backoff;
import io.rigscope.collectors.CollectorContext;
import io.rigscope.collectors.Resilient;
import io.rigscope.collectors.pglog.LogLinePrefix;
import io.rigscope.collectors.pglog.PgLogParser;
import io.rigscope.model.wire.PgLogEvent;
import io.rigscope.model.wire.WireRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;
import software.amazon.awssdk.services.rds.RdsClient;
import software.amazon.awssdk.services.rds.model.DescribeDBLogFilesDetails;
import software.amazon.awssdk.services.rds.model.DescribeDbLogFilesRequest;
import software.amazon.awssdk.services.rds.model.DescribeDbLogFilesResponse;
import software.amazon.awssdk.services.rds.model.DownloadDbLogFilePortionRequest;
import software.amazon.awssdk.services.rds.model.DownloadDbLogFilePortionResponse;

/**
 * The RDS Postgres log on {@code rig.pglog}: every {@code poll}, DescribeDBLogFiles for files written since
 * {@code since}, then DownloadDBLogFilePortion of each, oldest first, from the marker where the last read of that
 * file stopped ({@code "0"} for a file not read yet) until AdditionalDataPending is false. RDS rotates files (a
 * new {@code error/postgresql.log.YYYY-MM-DD-HH} each hour): a new name is simply a new file with its own marker,
 * and the previous one is read to its end first. Lines go through one {@link PgLogParser} with RDS's prefix
 * {@code %t:%r:%u@%d:[%p]:}, flushed after each poll. Failures: gap marker, retry with backoff from the same
 * markers.
 */
public final class RdsLogCollector {

    /**
     * @param dbInstanceIdentifier the instance
     * @param prefix its log_line_prefix (RDS's by default)
     * @param since read files last written at or after this time
     * @param poll time between reads
     */
    public record Config(String dbInstanceIdentifier, LogLinePrefix prefix, Instant since, Duration poll) {
        public Config {
            Objects.requireNonNull(dbInstanceIdentifier, "DB instance identifier (--db-instance)");
            prefix = prefix == null ? LogLinePrefix.of(LogLinePrefix.RDS, java.time.ZoneOffset.UTC) : prefix;
            since = since == null ? Instant.now() : since;
            poll = poll == null ? Duration.ofSeconds(5) : poll;
        }
    }

    private final Config config;
    private final AwsSettings aws;
    private final CollectorContext ctx;
    private final AtomicReference<PgLogParser> parser = new AtomicReference<>();

    public RdsLogCollector(Config config, AwsSettings aws, CollectorContext ctx) {
        this.config = Objects.requireNonNull(config, "config");
        this.aws = Objects.requireNonNull(aws, "aws");
        this.ctx = Objects.requireNonNull(ctx, "ctx");
    }

    public String src() {
        return "rdslog@" + config.dbInstanceIdentifier();
    }

    /** The parser's counts of the current subscription. */
    public PgLogParser.Counts counts() {
        PgLogParser p = parser.get();
        return p == null ? new PgLogParser.Counts(0, 0, 0, 0) : p.counts();
    }

    /** A cold, endless Flux of log events and gap markers. */
    public Flux<WireRecord> events() {
        return events(Schedulers.boundedElastic(), Backoff.defaults());
    }

    Flux<WireRecord> events(Scheduler io, Backoff backoff) {
        return Flux.using(() -> aws.build(RdsClient.builder()), client -> Flux.defer(() -> {
            Map<String, String> markers = new LinkedHashMap<>();
            var p = new PgLogParser(config.prefix(), ctx, src());
            parser.set(p);
            return Resilient.forever(ctx, src(), Topic.PGLOG, () -> Flux.interval(Duration.ZERO, config.poll(), io)
                    .onBackpressureDrop()
                    .concatMap(tick -> Mono.fromCallable(() -> read(client, markers, p)))
                    .concatMapIterable(list -> list), backoff, io);
        }), RdsClient::close);
    }

    private List<PgLogEvent> read(RdsClient client, Map<String, String> markers, PgLogParser p) {
        List<DescribeDBLogFilesDetails> files = new ArrayList<>();
        String page = null;
        do {
            DescribeDbLogFilesResponse resp = client.describeDBLogFiles(DescribeDbLogFilesRequest.builder()
                    .dbInstanceIdentifier(config.dbInstanceIdentifier())
                    .fileLastWritten(config.since().toEpochMilli()).marker(page).build());
            files.addAll(resp.describeDBLogFiles());
            page = resp.marker();
        } while (page != null && !page.isEmpty());
        files.sort(Comparator.comparing((DescribeDBLogFilesDetails f) -> f.lastWritten() == null ? 0L : f.lastWritten())
                .thenComparing(DescribeDBLogFilesDetails::logFileName));
        List<PgLogEvent> out = new ArrayList<>();
        for (DescribeDBLogFilesDetails file : files) {
            String name = file.logFileName();
            String marker = markers.getOrDefault(name, "0");
            for (int portion = 0; portion < 1000; portion++) {
                DownloadDbLogFilePortionResponse resp = client.downloadDBLogFilePortion(DownloadDbLogFilePortionRequest
                        .builder().dbInstanceIdentifier(config.dbInstanceIdentifier()).logFileName(name)
                        .marker(marker).build());
                String data = resp.logFileData();
                if (data != null && !data.isEmpty()) {
                    for (String line : data.split("\n", -1)) {
                        if (!line.isEmpty()) {
                            out.addAll(p.accept(line));
                        }
                    }
                }
                if (resp.marker() != null) {
                    marker = resp.marker();
                }
                markers.put(name, marker);
                if (!Boolean.TRUE.equals(resp.additionalDataPending())) {
                    break;
                }
            }
        }
        out.addAll(p.flush());
        return out;
    }
}
