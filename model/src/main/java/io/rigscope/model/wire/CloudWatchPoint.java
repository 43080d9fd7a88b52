package io.rigscope.model.wire;

import io.rigscope.model.topic.Topic;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * One CloudWatch datapoint on {@code rig.cloudwatch}.
 *
 * @param ts the datapoint's timestamp (start of its period), epoch µs
 * @param namespace e.g. {@code AWS/RDS}
 * @param metric e.g. {@code WriteIOPS}, {@code DiskQueueDepth}
 * @param dimensions e.g. {@code DBInstanceIdentifier -> db-1}
 * @param stat statistic, e.g. {@code Average}
 * @param periodSec the period the value aggregates, seconds
 * @param value the value, in {@code unit}
 * @param unit CloudWatch's unit name, e.g. {@code Count/Second}
 */
public record CloudWatchPoint(String run, int rep, String src, long ts, String namespace, String metric,
                              Map<String, String> dimensions, String stat, int periodSec, double value, String unit)
        implements WireRecord {

    public CloudWatchPoint {
        Checks.header(run, rep, src, ts);
        Checks.nonBlank(metric, "metric");
        dimensions = dimensions == null ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(dimensions));
    }

    @Override
    public Topic topic() {
        return Topic.CLOUDWATCH;
    }
}
