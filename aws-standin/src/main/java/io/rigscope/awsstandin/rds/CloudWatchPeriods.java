package io.rigscope.awsstandin.rds;

import io.rigscope.awsstandin.AwsAnswer;
import io.rigscope.model.wire.OsMetrics;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;

/**
 * The instance's {@code AWS/RDS} CloudWatch metrics, as {@link RdsStandIn} serves them to the real
 * {@code CloudWatchCollector}: computed from the same device readings the EM stream is made of (the local os
 * collector's, 1 s apart), over 60-s periods aligned to the minute, each readable once its minute has ended.
 * That is sooner than CloudWatch publishes (a minute or more later): the stand-in errs toward giving the
 * analyzer this stream.
 *
 * <p>Per reading, in CloudWatch's units: {@code WriteIOPS}, {@code ReadIOPS} (Count/Second) of the data device;
 * {@code WriteThroughput}, {@code ReadThroughput} (Bytes/Second); {@code DiskQueueDepth} (Count, the device's
 * average queue length); {@code WriteLatency}, {@code ReadLatency} (Seconds; the device's await, reads and
 * writes together); {@code CPUUtilization} (Percent: busy, not idle nor iowait); {@code FreeableMemory} (Bytes:
 * free + cached + buffers). A period's {@code Average}, {@code Maximum} or {@code Minimum} is over its readings.
 *
 * <p>Thread-safe: the feeder adds, the stand-in's server thread reads.
 */
final class CloudWatchPeriods {

    /** CloudWatch's query-protocol namespace. */
    static final String NS = "http://monitoring.amazonaws.com/doc/2010-08-01/";
    /** The period, seconds: RDS's standard resolution. */
    static final int PERIOD_SEC = 60;

    /** Metric name -> its value in one reading. */
    static final Map<String, ToDoubleFunction<OsMetrics>> METRICS = metrics();

    private static Map<String, ToDoubleFunction<OsMetrics>> metrics() {
        Map<String, ToDoubleFunction<OsMetrics>> m = new LinkedHashMap<>();
        m.put("WriteIOPS", os -> disk(os).writeIOsPS());
        m.put("ReadIOPS", os -> disk(os).readIOsPS());
        m.put("WriteThroughput", os -> disk(os).writeKbPS() * 1024);
        m.put("ReadThroughput", os -> disk(os).readKbPS() * 1024);
        m.put("DiskQueueDepth", os -> disk(os).avgQueueLen());
        m.put("WriteLatency", os -> disk(os).await() / 1000);
        m.put("ReadLatency", os -> disk(os).await() / 1000);
        m.put("CPUUtilization", os -> os.cpuUtilization().total());
        m.put("FreeableMemory", os -> (os.memory().free() + os.memory().cached() + os.memory().buffers()) * 1024.0);
        return java.util.Collections.unmodifiableMap(m);
    }

    private static OsMetrics.DiskIO disk(OsMetrics os) {
        return os.diskIO().get(0);
    }

    private final String instanceId;
    private final boolean inProgress;
    /** period start, epoch second -> the readings in it */
    private final NavigableMap<Long, List<OsMetrics>> periods = new TreeMap<>();

    /**
     * @param inProgress true to serve the minute in progress too (its readings so far): a test's series is shorter
     *                   than a minute; false serves only ended minutes, as CloudWatch does
     */
    CloudWatchPeriods(String instanceId, boolean inProgress) {
        this.instanceId = Objects.requireNonNull(instanceId, "instanceId");
        this.inProgress = inProgress;
    }

    /** Adds one local reading (its first device is the data directory's) to its minute. */
    synchronized void add(OsMetrics local) {
        if (local.diskIO().isEmpty()) {
            return;
        }
        long sec = Math.floorDiv(local.ts(), 1_000_000L);
        periods.computeIfAbsent(sec - Math.floorMod(sec, PERIOD_SEC), p -> new ArrayList<>()).add(local);
    }

    /**
     * Answers GetMetricData (CloudWatch API, query protocol: MetricDataQueries.member.N.{Id, Label,
     * MetricStat.{Metric.{Namespace, MetricName, Dimensions}, Period, Stat}}, StartTime, EndTime; MetricDataResults of
     * Id, Label, Timestamps, Values, StatusCode), ascending: each queried metric's ended periods that start in
     * {@code [StartTime, EndTime)}. A metric of another namespace or instance, or one not computed here, has no
     * values.
     */
    synchronized String getMetricData(Map<String, String> form, long nowMs) {
        Instant start = Instant.parse(form.get("StartTime"));
        Instant end = Instant.parse(form.get("EndTime"));
        StringBuilder results = new StringBuilder();
        for (int n = 1; form.containsKey("MetricDataQueries.member." + n + ".Id"); n++) {
            String q = "MetricDataQueries.member." + n + ".";
            String metric = form.getOrDefault(q + "MetricStat.Metric.MetricName", "");
            String stat = form.getOrDefault(q + "MetricStat.Stat", "Average");
            int period = Integer.parseInt(form.getOrDefault(q + "MetricStat.Period", "60"));
            boolean mine = "AWS/RDS".equals(form.get(q + "MetricStat.Metric.Namespace"))
                    && instanceId.equals(form.get(q + "MetricStat.Metric.Dimensions.member.1.Value"))
                    && period == PERIOD_SEC && METRICS.containsKey(metric);
            StringBuilder stamps = new StringBuilder();
            StringBuilder values = new StringBuilder();
            if (mine) {
                long endedBefore = Math.floorDiv(nowMs, 1000) - (inProgress ? 0 : PERIOD_SEC);
                for (var e : periods.subMap(start.getEpochSecond(), true, end.getEpochSecond(), false).entrySet()) {
                    if (e.getKey() > endedBefore) {
                        break;
                    }
                    double v = value(e.getValue(), METRICS.get(metric), stat);
                    stamps.append("<member>").append(Instant.ofEpochSecond(e.getKey())).append("</member>");
                    values.append("<member>").append(String.format(Locale.ROOT, "%.6f", v)).append("</member>");
                }
            }
            results.append("<member><Id>").append(AwsAnswer.escape(form.get(q + "Id"))).append("</Id><Label>")
                    .append(AwsAnswer.escape(form.getOrDefault(q + "Label", metric))).append("</Label><Timestamps>")
                    .append(stamps).append("</Timestamps><Values>").append(values)
                    .append("</Values><StatusCode>Complete</StatusCode></member>");
        }
        return "<MetricDataResults>" + results + "</MetricDataResults><Messages/>";
    }

    private static double value(List<OsMetrics> readings, ToDoubleFunction<OsMetrics> f, String stat) {
        var s = readings.stream().mapToDouble(f).summaryStatistics();
        return switch (stat) {
            case "Maximum" -> s.getMax();
            case "Minimum" -> s.getMin();
            case "Sum" -> s.getSum();
            case "SampleCount" -> s.getCount();
            default -> s.getAverage();
        };
    }
}
