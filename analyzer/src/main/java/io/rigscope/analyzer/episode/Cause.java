package io.rigscope.analyzer.episode;

/**
 * The causes an episode can be attributed to, or {@link #UNATTRIBUTED}: the {@code cause} of an {@code EPISODE}
 * verdict (docs/wire-format.md). Wire form: {@link #code()}.
 */
public enum Cause {
    VACUUM_REWRITE_STORM("vacuum-rewrite-storm"),
    WAL_POOL_REFILL("wal-pool-refill"),
    STORAGE_SATURATION("storage-saturation"),
    HOST_IO_STALL("host-io-stall"),
    LOCK_CONTENTION("lock-contention"),
    CACHE_OUT_OF_RAM("cache-out-of-ram"),
    GENERATOR_STALL("generator-stall"),
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
