package io.rigscope.model.wire;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.rigscope.model.topic.Topic;

/**
 * The disk canary's second on {@code rig.canary}: small writes plus fdatasync on the data filesystem.
 *
 * <p>Every latency is a write plus its fdatasync as the canary's thread saw it (total). The canary also measures
 * its own scheduling delay (the run-queue wait of its thread, from Linux's {@code /proc/self/task/TID/schedstat})
 * and reports the disk's share beside the total: the write+fsync minus the time its thread waited for a CPU
 * during it. A canary that waits for a CPU looks exactly like a disk that stalled; these fields tell them apart.
 *
 * <p>The fields after {@code stalledIntervals} are optional and absent when unknown: older canaries never wrote
 * them (their records decode with them null and encode to the same bytes as before), and a canary that could not
 * read schedstat writes {@code runqSource = "unavailable"} and no run-queue or disk figure.
 *
 * @param path the file the canary writes
 * @param fsyncs fsyncs completed in the second
 * @param fsyncMaxUs slowest write+fsync, µs (including one still pending at the end of the second)
 * @param fsyncP99Us 99th percentile write+fsync, µs
 * @param stalledIntervals canary intervals in the second in which no fsync completed
 * @param runqSource how the run-queue wait was measured: {@code schedstat}, or {@code unavailable} (not Linux,
 *     no schedstat file, or it reads {@code 0 0 0}); null in records from canaries that did not measure it
 * @param fsyncMaxRunqUs the run-queue wait of the canary's thread during the slowest write+fsync (the one in
 *     {@code fsyncMaxUs}), µs; null when not measured
 * @param fsyncMaxDiskUs the largest disk share of the second: write+fsync minus its run-queue wait, µs (a write
 *     still pending counts only while its thread is not runnable: a wait for a CPU in progress is not visible
 *     until it ends); null when not measured
 * @param fsyncP99DiskUs the 99th percentile of the disk shares of the second's completed writes, µs; null when
 *     not measured
 * @param runqUs the canary thread's whole run-queue wait in the second (during writes and waking up between
 *     them), µs; null when not measured
 * @param cpus CPUs online on the canary's host (what {@code vmstat}'s {@code r} is compared with); null in
 *     records from older canaries
 */
public record Canary(String run, int rep, String src, long ts, String path, long fsyncs, long fsyncMaxUs,
                     long fsyncP99Us, int stalledIntervals,
                     @JsonInclude(JsonInclude.Include.NON_NULL) String runqSource,
                     @JsonInclude(JsonInclude.Include.NON_NULL) Long fsyncMaxRunqUs,
                     @JsonInclude(JsonInclude.Include.NON_NULL) Long fsyncMaxDiskUs,
                     @JsonInclude(JsonInclude.Include.NON_NULL) Long fsyncP99DiskUs,
                     @JsonInclude(JsonInclude.Include.NON_NULL) Long runqUs,
                     @JsonInclude(JsonInclude.Include.NON_NULL) Integer cpus) implements WireRecord {

    /** {@link #runqSource} of a canary that read its thread's run-queue wait from schedstat. */
    public static final String RUNQ_SCHEDSTAT = "schedstat";
    /** {@link #runqSource} of a canary that could not measure its run-queue wait. */
    public static final String RUNQ_UNAVAILABLE = "unavailable";

    public Canary {
        Checks.header(run, rep, src, ts);
        if (RUNQ_SCHEDSTAT.equals(runqSource) && (fsyncMaxRunqUs == null || fsyncMaxDiskUs == null
                || fsyncP99DiskUs == null || runqUs == null)) {
            throw new IllegalArgumentException("a canary second measured by schedstat needs fsyncMaxRunqUs, "
                    + "fsyncMaxDiskUs, fsyncP99DiskUs and runqUs");
        }
    }

    /** A second as older canaries wrote it: totals only, nothing known of the canary's scheduling delay. */
    public Canary(String run, int rep, String src, long ts, String path, long fsyncs, long fsyncMaxUs,
                  long fsyncP99Us, int stalledIntervals) {
        this(run, rep, src, ts, path, fsyncs, fsyncMaxUs, fsyncP99Us, stalledIntervals, null, null, null, null,
                null, null);
    }

    /** True when the run-queue wait was measured, so the disk's share is known. */
    public boolean runqMeasured() {
        return RUNQ_SCHEDSTAT.equals(runqSource);
    }

    @Override
    public Topic topic() {
        return Topic.CANARY;
    }
}
