package io.rigscope.model.wire;

import io.rigscope.model.topic.Topic;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * One OS metrics document on {@code rig.os}, shaped like an RDS Enhanced Monitoring document so that a local
 * host and an RDS instance look alike downstream. Field names follow Enhanced Monitoring's.
 *
 * @param engine {@code POSTGRES} on RDS, {@code LOCAL} for a local host
 * @param cpuUtilization CPU percentages over the interval
 * @param memory memory in KB (Enhanced Monitoring's unit)
 * @param loadAverageMinute load averages
 * @param diskIO per-device IO over the interval (RDS: {@code rdsdev}, {@code filesystem}; local: the device)
 * @param physicalDeviceIO RDS's {@code physicalDeviceIO} list; empty locally
 */
public record OsMetrics(String run, int rep, String src, long ts, String engine, Cpu cpuUtilization, Memory memory,
                        LoadAverage loadAverageMinute, List<DiskIO> diskIO, List<DiskIO> physicalDeviceIO)
        implements WireRecord {

    public OsMetrics {
        Checks.header(run, rep, src, ts);
        diskIO = diskIO == null ? List.of() : List.copyOf(diskIO);
        physicalDeviceIO = physicalDeviceIO == null ? List.of() : List.copyOf(physicalDeviceIO);
    }

    @Override
    public Topic topic() {
        return Topic.OS;
    }

    /** CPU percentages over the interval; {@code wait} is IO wait (Enhanced Monitoring's name). */
    public record Cpu(double user, double system, @JsonProperty("wait") double ioWait, double irq, double nice, double steal,
                      double guest, double idle, double total) {
    }

    /** Memory in KB. */
    public record Memory(long total, long free, long cached, long buffers, long dirty, long writeback, long active,
                         long inactive) {
    }

    /** Load averages over 1, 5 and 15 minutes. */
    public record LoadAverage(double one, double five, double fifteen) {
    }

    /**
     * One device's IO over the interval, with Enhanced Monitoring's names.
     *
     * @param device device name
     * @param readIOsPS read requests per second
     * @param writeIOsPS write requests per second
     * @param readKbPS KB read per second
     * @param writeKbPS KB written per second
     * @param avgReqSz average request size, KB
     * @param avgQueueLen average queue length (requests)
     * @param await average time a request spent queued and served, ms
     * @param util percent of the interval with IO in progress
     */
    public record DiskIO(String device, double readIOsPS, double writeIOsPS, double readKbPS, double writeKbPS,
                         double avgReqSz, double avgQueueLen, double await, double util) {
    }
}
