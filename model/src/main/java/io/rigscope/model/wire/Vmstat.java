package io.rigscope.model.wire;

import io.rigscope.model.topic.Topic;

/**
 * One parsed {@code vmstat -n -t} line on {@code rig.vmstat}. Column names are vmstat's; units are vmstat's
 * defaults: memory in KiB, {@code si}/{@code so} in KiB/s, {@code bi}/{@code bo} in blocks/s,
 * {@code in}/{@code cs} per second, CPU columns in percent.
 *
 * @param ts the line's own timestamp (vmstat -t), epoch µs
 * @param gu guest CPU percent; null where vmstat does not print it
 */
public record Vmstat(String run, int rep, String src, long ts, long r, long b, long swpd, long free, long buff,
                     long cache, long si, long so, long bi, long bo, long in, long cs, int us, int sy, int id,
                     int wa, int st, Integer gu) implements WireRecord {

    public Vmstat {
        Checks.header(run, rep, src, ts);
    }

    @Override
    public Topic topic() {
        return Topic.VMSTAT;
    }
}
