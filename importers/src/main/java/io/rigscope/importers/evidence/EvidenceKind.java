package io.rigscope.importers.evidence;

/** The formats an evidence directory may hold, each recognised by its content (docs/rescan.md). */
enum EvidenceKind {
    /** k6 {@code --out json}: JSON lines of {@code Metric} and {@code Point} (plain or gzip). */
    K6_JSON("k6 json", "rig.samples"),
    /** k6 {@code --out csv}: a {@code metric_name,timestamp,metric_value,...} header, then one point a row. */
    K6_CSV("k6 csv", "rig.samples"),
    /** {@code vmstat -n -t} text. */
    VMSTAT("vmstat", "rig.vmstat"),
    /** RDS Enhanced Monitoring documents, one a line (bare, or as CloudWatch Logs events). */
    ENHANCED_MONITORING("enhanced monitoring", "rig.os"),
    /** Performance Insights GetResourceMetrics responses (one a line, an array, or pretty-printed). */
    PERFORMANCE_INSIGHTS("performance insights", "rig.waits"),
    /** PostgreSQL stderr log (default prefix, RDS prefix, or {@code --pglog-prefix}). */
    PGLOG("postgres log", "rig.pglog"),
    /** CloudWatch GetMetricData responses as the AWS CLI prints them. */
    CLOUDWATCH("cloudwatch", "rig.cloudwatch"),
    /** A rigscope wire file ({@code --out FILE.jsonl}): {@code {"topic", "key", "value"}} lines. */
    WIRE("rigscope wire file", "any"),
    /** The DB sampler's JSONL: one {@code rig.db} value a line. */
    DB_SAMPLER("db sampler", "rig.db");

    private final String label;
    private final String topic;

    EvidenceKind(String label, String topic) {
        this.label = label;
        this.topic = topic;
    }

    /** As printed, e.g. {@code k6 json}. */
    public String label() {
        return label;
    }

    /** The topic its records go to. */
    public String topic() {
        return topic;
    }
}
