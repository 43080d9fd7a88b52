package io.rigscope.model.wire;

import io.rigscope.model.topic.Topic;

/**
 * The generator's own health for one second on {@code rig.health}: is the instrument telling the truth?
 *
 * @param jvmPauseMs longest stall of a sleeping probe thread beyond its sleep in the second (jHiccup-style)
 * @param gcPauseMs total GC pause time reported by the JVM in the second
 * @param loopLagMs worst event-loop scheduling lag in the second
 * @param cpuPct process CPU over the second, percent of one core
 * @param inFlight requests in flight at the end of the second
 * @param oldestInFlightMs age of the oldest request still in flight, 0 when none
 */
public record Health(String run, int rep, String src, long ts, double jvmPauseMs, double gcPauseMs,
                     double loopLagMs, double cpuPct, int inFlight, double oldestInFlightMs) implements WireRecord {

    public Health {
        Checks.header(run, rep, src, ts);
        Checks.nonNegative(inFlight, "inFlight");
    }

    @Override
    public Topic topic() {
        return Topic.HEALTH;
    }
}
