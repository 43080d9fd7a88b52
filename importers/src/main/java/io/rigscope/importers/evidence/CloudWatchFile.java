package io.rigscope.importers.evidence;

import com.fasterxml.jackson.databind.JsonNode;
import io.rigscope.collectors.aws.RdsMetricUnits;
import io.rigscope.model.wire.CloudWatchPoint;
import io.rigscope.model.wire.WireRecord;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Consumer;

/**
 * CloudWatch GetMetricData responses (the AWS CLI's JSON) to {@code rig.cloudwatch}: each
 * {@code MetricDataResults} entry is a metric (its {@code Label}, else its {@code Id}), its {@code Timestamps}
 * and {@code Values} paired in order. The response carries neither the period, the statistic nor the unit: the
 * period is the smallest gap between timestamps (60 s with one), the statistic {@code Average}, the unit RDS's
 * for the metrics it knows ({@link RdsMetricUnits}).
 */
final class CloudWatchFile implements EvidenceReader {

    private final String series;

    CloudWatchFile(String series) {
        this.series = series;
    }

    @Override
    public void read(Path file, Tally tally, Consumer<WireRecord> out) throws IOException {
        EvidenceText.values(file, tally, response -> {
            if (!response.path("MetricDataResults").isArray()) {
                tally.bad(tally.lines, "not a GetMetricData response (no MetricDataResults)");
                return;
            }
            for (JsonNode r : response.path("MetricDataResults")) {
                String metric = RdsMetricUnits.canonical(r.path("Label").asText(r.path("Id").asText("")));
                JsonNode ts = r.path("Timestamps");
                JsonNode values = r.path("Values");
                if (metric.isBlank() || ts.size() != values.size()) {
                    tally.bad(tally.lines, "metric '" + metric + "': " + ts.size() + " timestamps, " + values.size()
                            + " values");
                    continue;
                }
                long[] us = new long[ts.size()];
                long gap = Long.MAX_VALUE;
                for (int i = 0; i < ts.size(); i++) {
                    Long t = PerformanceInsightsFile.timestampUs(ts.get(i));
                    us[i] = t == null ? -1 : t;
                    if (i > 0 && us[i] > 0 && us[i - 1] > 0 && us[i] != us[i - 1]) {
                        gap = Math.min(gap, Math.abs(us[i] - us[i - 1]));
                    }
                }
                int periodSec = gap == Long.MAX_VALUE ? 60 : (int) Math.max(1, gap / 1_000_000L);
                for (int i = 0; i < us.length; i++) {
                    if (us[i] <= 0 || !values.get(i).isNumber()) {
                        tally.bad(tally.lines, "metric " + metric + " point " + i + " has no time or value");
                        continue;
                    }
                    out.accept(new CloudWatchPoint(series, 0, "cloudwatch@rds", us[i], "AWS/RDS", metric, Map.of(),
                            "Average", periodSec, values.get(i).asDouble(), RdsMetricUnits.unit(metric)));
                    tally.records++;
                }
            }
        });
    }
}
