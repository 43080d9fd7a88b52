package io.rigscope.analyzer.config;

/**
 * Every scalar analyzer setting, defined once: key, unit, default and meaning. Keys are public API: they are
 * read from the {@code CONFIG} marker's data (top level, overridden by an {@code "analyzer"} object) and
 * listed in docs/gates.md and docs/detectors.md.
 */
public enum AnalyzerSetting {
    FREEZE_WORST_MS("freeze_worst_ms", "ms", "150",
            "A freeze-second's worst request (service time) must exceed this."),
    FREEZE_SLOW_MS("freeze_slow_ms", "ms", "50",
            "A request is slow when its service time exceeds this."),
    FREEZE_SLOW_FRACTION("freeze_slow_fraction", "fraction", "0.10",
            "A freeze-second has more than this fraction of its requests slow."),
    WINDOW_BUCKET_S("window_bucket_s", "s", "10",
            "Bucket width for windows and the worst-bucket figure; buckets start at epoch multiples of it."),
    WINDOW_FACTOR("window_factor", "x", "3",
            "A bucket is hot when its p99 exceeds this times the repeat's median bucket p99."),
    WINDOW_MIN_BUCKETS("window_min_buckets", "buckets", "2",
            "A window is at least this many consecutive hot buckets."),
    DRIFT_BOUND("drift_bound", "x", "1.5",
            "Drift gate: the p99 of the repeat's last third must not be above this many times the p99 of its first "
                    + "third, unless by chance (a one-sided quantile test, p > 0.05)."),
    MIN_SAMPLES("min_samples", "samples", "1000",
            "Samples gate: a repeat needs at least this many samples of its primary scenario."),
    PROBE_SCENARIO("probe_scenario", "name", "probe",
            "The read probe's scenario: gated on its own, never pooled into the figures."),
    PROBE_P99_MS("probe_p99_ms", "ms", "500",
            "Probe gate: the probe's p99 service time must not exceed this."),
    EPISODE_GAP_S("episode_gap_s", "s", "3",
            "Freeze-seconds and windows this close (end to start) or closer join into one episode."),
    SCENARIO("scenario", "name", "",
            "The primary scenario whose latency is reported; empty: the non-probe scenario with most samples."),
    RECONCILIATION_REQUIRED("reconciliation_required", "boolean", "true",
            "Whether a repeat needs a RECONCILIATION marker; without one the series is UNRECONCILED."),
    THRESHOLDS_ALL_SCENARIOS("thresholds_all_scenarios", "boolean", "false",
            "true: a threshold without a {scenario:NAME} filter covers every scenario together, as k6 judges it (k6 imports and rescans set it); false: the primary scenario."),
    LADDER_MIN_DELIVERED_RATIO("ladder_min_delivered_ratio", "fraction", "0.99",
            "Ladder rung gate: successful requests over scheduled requests must reach this."),
    GENERATOR_SILENCE_S("generator_silence_s", "s", "5",
            "A generator that published nothing for longer than this (by its records' timestamps) while its repeat is open is silent: the repeat ends there and fails (ended_by generator_silent). Live, only seconds in which the broker acknowledged the analyzer's write probe and the analyzer had read every partition to its end count. At least 4."),
    ATTRIBUTION_GENERATOR_PAUSE_MS("attribution_generator_pause_ms", "ms", "100",
            "Generator control: a JVM pause or event-loop lag this long within 1 s of an episode names the generator."),
    ATTRIBUTION_COVER_SHARE("attribution_cover_share", "fraction", "0.5",
            "A stall (the generator's pause, the disk canary's fsync) explains an episode when at least this share of its worst request."),
    ATTRIBUTION_VACUUM_WAL_MB("attribution_vacuum_wal_mb", "MB", "16",
            "A logged vacuum counts when it wrote at least this much WAL (or 1,000 full-page images); a running one always."),
    ATTRIBUTION_CANARY_STALL_MS("attribution_canary_stall_ms", "ms", "100",
            "Disk canary control: a write+fsync this slow, around an episode, is a disk stall."),
    ATTRIBUTION_LOCK_SHARE("attribution_lock_share", "fraction", "0.5",
            "lock_contention: share of active sessions on Lock:transactionid, Lock:tuple or LWLock:LockManager."),
    ATTRIBUTION_WAL_WAIT_SHARE("attribution_wal_wait_share", "fraction", "0.3",
            "vacuum_storm: share of active sessions waiting on WAL (LWLock:WALWrite/WALInsert, IO:WALWrite/WALSync)."),
    ATTRIBUTION_READ_SHARE("attribution_read_share", "fraction", "0.3",
            "cache_ram: share of active sessions on IO:DataFileRead."),
    ATTRIBUTION_P50_LIFT("attribution_p50_lift", "x", "3",
            "p50 lifts when the episode's median service time is this many times the repeat's."),
    ATTRIBUTION_QUEUE_DEPTH("attribution_queue_depth", "requests", "32",
            "storage: average disk queue length (rig.os avgQueueLen or CloudWatch DiskQueueDepth) at or above this."),
    ATTRIBUTION_AWAIT_MS("attribution_await_ms", "ms", "20",
            "storage: average disk request time (rig.os await) at or above this."),
    ATTRIBUTION_GRACE_S("attribution_grace_s", "s", "5",
            "Live: a repeat's causes are decided once every stream has reached its end plus its tolerance plus this."),
    ATTRIBUTION_COMMIT_SHARE("attribution_commit_share", "fraction", "0.25",
            "Instrument control from rig.db: commits per second in every 1-s sampler interval of an episode at least this share of their rate in the 10 s before it."),
    ATTRIBUTION_GENERATOR_HOSTS("attribution_generator_hosts", "names", "",
            "Instrument control from vmstat: the hosts the load generator ran on, comma-separated, as its vmstat src names them (vmstat@HOST); empty: none known."),
    ATTRIBUTION_GENERATOR_IDLE_PCT("attribution_generator_idle_pct", "%", "10",
            "Instrument control from the generator host's vmstat: CPU idle at least this, and steal 0, on every line over an episode."),
    ATTRIBUTION_SERVICE_SHARE("attribution_service_share", "fraction", "0.5",
            "service: the service's own non-database time (Server-Timing: every metric but db and pool) is at least this share of the episode's slowest request."),
    ATTRIBUTION_POOL_SHARE("attribution_pool_share", "fraction", "0.5",
            "connection_pool: the wait for a pooled connection (Server-Timing pool) is at least this share of the episode's slowest request."),
    ATTRIBUTION_SERVICE_PAUSE_MS("attribution_service_pause_ms", "ms", "100",
            "service: the service's process stopped or at a JVM safepoint this long (rig.process) within 1 s of an episode."),
    ATTRIBUTION_SERVICE_CPU_SHARE("attribution_service_cpu_share", "fraction", "0.9",
            "service: the service's process used at least this share of the CPUs it can use (rig.process; one for a single-threaded server, whose one thread did the waiting) in a second of an episode: saturated."),
    ATTRIBUTION_SERVICE_STARVED_SHARE("attribution_service_starved_share", "fraction", "0.5",
            "service and connection_pool: one thread of the service's process waited for a CPU (rig.process runqWaitMaxMs) at least this share of a record's interval: that second the service was starved."),
    ATTRIBUTION_DB_BUSY_SESSIONS("attribution_db_busy_sessions", "sessions", "2.5",
            "Database control of service and connection_pool: average active sessions not waiting on the client (Client:*) over an episode below this (rig.waits).");

    private final String key;
    private final String unit;
    private final String defaultValue;
    private final String doc;

    AnalyzerSetting(String key, String unit, String defaultValue, String doc) {
        this.key = key;
        this.unit = unit;
        this.defaultValue = defaultValue;
        this.doc = doc;
    }

    /** The config key, e.g. {@code freeze_worst_ms}. */
    public String key() {
        return key;
    }

    /** The unit of the value. */
    public String unit() {
        return unit;
    }

    /** The default, as text. */
    public String defaultValue() {
        return defaultValue;
    }

    /** One sentence on what it does. */
    public String doc() {
        return doc;
    }
}
