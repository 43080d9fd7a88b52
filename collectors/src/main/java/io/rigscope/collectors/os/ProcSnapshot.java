package io.rigscope.collectors.os;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One reading of the kernel's counters: /proc/diskstats, /proc/stat (the {@code cpu} line), /proc/meminfo,
 * /proc/loadavg, taken at {@code nanoTime}. Rates come from the difference of two snapshots.
 *
 * @param nanoTime {@link System#nanoTime()} when read
 * @param disks device name -> its diskstats counters
 * @param cpuTicks the aggregate cpu line: user nice system idle iowait irq softirq steal guest guest_nice
 * @param memKb meminfo key -> value in kB
 * @param load1 1-minute load average
 * @param load5 5-minute load average
 * @param load15 15-minute load average
 */
record ProcSnapshot(long nanoTime, Map<String, Disk> disks, long[] cpuTicks, Map<String, Long> memKb,
                    double load1, double load5, double load15) {

    /**
     * One /proc/diskstats line (Documentation/admin-guide/iostats.rst): completed reads, sectors read, ms
     * reading, completed writes, sectors written, ms writing, ms doing IO, weighted ms doing IO.
     */
    record Disk(int major, int minor, String name, long reads, long sectorsRead, long readMs, long writes,
                long sectorsWritten, long writeMs, long ioMs, long weightedIoMs) {
    }

    static ProcSnapshot read(Path proc) throws IOException {
        long now = System.nanoTime();
        Map<String, Disk> disks = parseDiskstats(Files.readAllLines(proc.resolve("diskstats")));
        long[] cpu = parseCpu(Files.readAllLines(proc.resolve("stat")));
        Map<String, Long> mem = parseMeminfo(Files.readAllLines(proc.resolve("meminfo")));
        String[] load = Files.readString(proc.resolve("loadavg")).trim().split("\\s+");
        return new ProcSnapshot(now, disks, cpu, mem, Double.parseDouble(load[0]), Double.parseDouble(load[1]),
                Double.parseDouble(load[2]));
    }

    static Map<String, Disk> parseDiskstats(List<String> lines) {
        Map<String, Disk> out = new HashMap<>();
        for (String line : lines) {
            String[] f = line.trim().split("\\s+");
            if (f.length < 14) {
                continue;
            }
            try {
                out.put(f[2], new Disk(Integer.parseInt(f[0]), Integer.parseInt(f[1]), f[2], Long.parseLong(f[3]),
                        Long.parseLong(f[5]), Long.parseLong(f[6]), Long.parseLong(f[7]), Long.parseLong(f[9]),
                        Long.parseLong(f[10]), Long.parseLong(f[12]), Long.parseLong(f[13])));
            } catch (NumberFormatException ignored) {
                // a line of another format is not a device
            }
        }
        return out;
    }

    static long[] parseCpu(List<String> lines) {
        for (String line : lines) {
            if (line.startsWith("cpu ")) {
                String[] f = line.trim().split("\\s+");
                long[] t = new long[10];
                for (int i = 1; i < f.length && i <= 10; i++) {
                    t[i - 1] = Long.parseLong(f[i]);
                }
                return t;
            }
        }
        throw new IllegalStateException("/proc/stat has no aggregate cpu line");
    }

    static Map<String, Long> parseMeminfo(List<String> lines) {
        Map<String, Long> out = new HashMap<>();
        for (String line : lines) {
            int colon = line.indexOf(':');
            if (colon < 0) {
                continue;
            }
            String[] v = line.substring(colon + 1).trim().split("\\s+");
            try {
                out.put(line.substring(0, colon), Long.parseLong(v[0]));
            } catch (NumberFormatException ignored) {
                // not a number: not a memory figure
            }
        }
        return out;
    }
}
