package io.rigscope.analyzer.attribution;

import io.rigscope.analyzer.decision.Cause;
import java.util.EnumSet;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The table of causes (docs/attribution.md, The table of causes): one row per cause with its rule, its lever and the
 * controls that apply to it. The order of the rows is the rank among findings otherwise equal ({@link Attribution}).
 * A new cause is one {@link Cause} constant, one {@link CauseRule}, one {@link LeverRule} and one row here.
 */
enum CauseSpec {

    GENERATOR(Cause.GENERATOR, new GeneratorRule(), new GeneratorLever(), CauseSpec::never),
    VACUUM_STORM(Cause.VACUUM_STORM, new VacuumStormRule(), new VacuumStormLever(), CauseSpec::never,
            Flag.INSTRUMENT, Flag.DISK, Flag.SERVER),
    WAL_POOL(Cause.WAL_POOL, new WalPoolRule(), new WalPoolLever(), CauseSpec::never,
            Flag.INSTRUMENT, Flag.DISK, Flag.SERVER),
    LOCK_CONTENTION(Cause.LOCK_CONTENTION, new LockContentionRule(), new LockContentionLever(), CauseSpec::never,
            Flag.INSTRUMENT, Flag.SERVER),
    STORAGE(Cause.STORAGE, new StorageRule(), new StorageLever(), CauseSpec::never,
            Flag.INSTRUMENT, Flag.DISK, Flag.SERVER, Flag.VACUUM_MECHANISM),
    CACHE_RAM(Cause.CACHE_RAM, new CacheRamRule(), new CacheRamLever(), CauseSpec::never,
            Flag.INSTRUMENT, Flag.DISK, Flag.SERVER),
    HOST_IO(Cause.HOST_IO, new HostIoRule(), new HostIoLever(), CauseSpec::never,
            Flag.INSTRUMENT, Flag.YIELDS_TO_SERVER),
    CONNECTION_POOL(Cause.CONNECTION_POOL, new ConnectionPoolRule(), new ConnectionPoolLever(), CauseSpec::never,
            Flag.INSTRUMENT, Flag.SERVER),
    SERVICE(Cause.SERVICE, new ServiceRule(), new ServiceLever(), ServiceRule::byExclusion,
            Flag.INSTRUMENT, Flag.SERVER);

    /** What applies to a cause's findings beside its rule. */
    enum Flag {
        /** The instrument control ({@link InstrumentControl}) caps it when not met: every cause but the generator. */
        INSTRUMENT,
        /** An IO cause: the disk control ({@link DiskControl}) caps it when not met. */
        DISK,
        /** A database or service cause: attributed, it caps {@link #YIELDS_TO_SERVER} causes at most_likely. */
        SERVER,
        /** Capped at most_likely when a {@link #SERVER} cause is attributed (the canary stalled under its writes). */
        YIELDS_TO_SERVER,
        /** The vacuum's mechanism: ranked right after vacuum_storm when the vacuum wrote a WAL burst. */
        VACUUM_MECHANISM
    }

    private final Cause cause;
    private final CauseRule rule;
    private final LeverRule lever;
    private final Predicate<Finding> byExclusion;
    private final Set<Flag> flags;

    CauseSpec(Cause cause, CauseRule rule, LeverRule lever, Predicate<Finding> byExclusion, Flag... flags) {
        this.cause = cause;
        this.rule = rule;
        this.lever = lever;
        this.byExclusion = byExclusion;
        this.flags = flags.length == 0 ? EnumSet.noneOf(Flag.class) : EnumSet.of(flags[0], flags);
    }

    /** The row of a cause, or null when the cause has none ({@code unattributed}). */
    static CauseSpec of(Cause cause) {
        for (CauseSpec s : values()) {
            if (s.cause == cause) {
                return s;
            }
        }
        return null;
    }

    Cause cause() {
        return cause;
    }

    CauseRule rule() {
        return rule;
    }

    LeverRule lever() {
        return lever;
    }

    boolean has(Flag flag) {
        return flags.contains(flag);
    }

    /** True when the finding was made by exclusion: it stands only when no other rule's fingerprint fits. */
    boolean byExclusion(Finding f) {
        return byExclusion.test(f);
    }

    /** The rank of a finding's cause among findings otherwise equal: the row's place in the table. */
    static int rank(Finding f) {
        CauseSpec s = of(f.cause());
        return s == null ? -1 : s.ordinal();
    }

    private static boolean never(Finding f) {
        return false;
    }
}
