package io.rigscope.analyzer.decision;

/**
 * The causes an episode can be attributed to (docs/attribution.md gives each fingerprint and its rule class), or
 * {@link #UNATTRIBUTED}. Wire form: {@link #code()}.
 */
public enum Cause {
    /** An autovacuum (or VACUUM) writing a burst of WAL, mostly full-page images; committers wait on WAL. */
    VACUUM_STORM("vacuum_storm"),
    /** A backend creating a WAL segment ({@code IO:WALInitWrite}/{@code IO:WALInitSync}); short, recurring. */
    WAL_POOL("wal_pool"),
    /** The volume at its ceiling: queue depth and request time high, often at a checkpoint's sync. */
    STORAGE("storage"),
    /** The disk itself stops: the canary's fsync stalls with nothing in Postgres to explain it. */
    HOST_IO("host_io"),
    /** Most active sessions on row or lock-manager locks. */
    LOCK_CONTENTION("lock_contention"),
    /** Reads climbing to the volume: the working set fell out of RAM. */
    CACHE_RAM("cache_ram"),
    /** The instrument: a JVM pause or event-loop lag in the generator. */
    GENERATOR("generator"),
    /**
     * The service itself: its own non-database time (Server-Timing) or a pause or CPU saturation of its process
     * ({@code rig.process}) covers the episode while the database was not busy and the generator healthy.
     */
    SERVICE("service"),
    /** The service's connection pool: waiting for a pooled connection dominates the episode's worst requests. */
    CONNECTION_POOL("connection_pool"),
    /** No rule's fingerprint fits. */
    UNATTRIBUTED("unattributed");

    private final String code;

    Cause(String code) {
        this.code = code;
    }

    /** As reports and verdicts write it. */
    public String code() {
        return code;
    }
}
