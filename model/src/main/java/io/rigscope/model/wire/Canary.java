package io.rigscope.model.wire;

import io.rigscope.model.topic.Topic;

/**
 * The disk canary's second on {@code rig.canary}: small writes plus fdatasync on the data filesystem.
 *
 * @param path the file the canary writes
 * @param fsyncs fsyncs completed in the second
 * @param fsyncMaxUs slowest write+fsync, µs (including one still pending at the end of the second)
 * @param fsyncP99Us 99th percentile write+fsync, µs
 * @param stalledIntervals canary intervals in the second in which no fsync completed
 */
public record Canary(String run, int rep, String src, long ts, String path, long fsyncs, long fsyncMaxUs,
                     long fsyncP99Us, int stalledIntervals) implements WireRecord {

    public Canary {
        Checks.header(run, rep, src, ts);
    }

    @Override
    public Topic topic() {
        return Topic.CANARY;
    }
}
