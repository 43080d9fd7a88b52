package io.rigscope.collectors.os;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.Optional;

/**
 * Finds the block device that holds a directory, by name as /proc/diskstats lists it.
 *
 * <p>First by the directory's device number ({@code st_dev}) matched against diskstats' major:minor; when
 * that names no block device (overlay and other virtual filesystems), by the mount in /proc/self/mountinfo
 * with the longest mount point above the directory whose source is {@code /dev/NAME}; else the whole disk
 * with the most IO so far. A partition also yields its whole disk ({@code vda1} -> {@code vda}).
 */
final class DeviceResolver {

    private DeviceResolver() {
    }

    static String resolve(Path dir, Path proc) throws IOException {
        Map<String, ProcSnapshot.Disk> disks = ProcSnapshot.parseDiskstats(Files.readAllLines(proc.resolve("diskstats")));
        Path real = dir.toRealPath();
        Object dev = Files.getAttribute(real, "unix:dev");
        if (dev instanceof Long d) {
            long major = ((d >>> 8) & 0xfffL) | ((d >>> 32) & ~0xfffL);
            long minor = (d & 0xffL) | ((d >>> 12) & ~0xffL);
            Optional<String> byNumber = disks.values().stream()
                    .filter(k -> k.major() == major && k.minor() == minor).map(ProcSnapshot.Disk::name).findFirst();
            if (byNumber.isPresent()) {
                return byNumber.get();
            }
        }
        Path mountinfo = proc.resolve("self/mountinfo");
        if (Files.isReadable(mountinfo)) {
            String best = null;
            int bestLen = -1;
            for (String line : Files.readAllLines(mountinfo)) {
                String[] f = line.split(" ");
                int dash = java.util.Arrays.asList(f).indexOf("-");
                if (f.length < 5 || dash < 0 || dash + 2 >= f.length) {
                    continue;
                }
                String mountPoint = f[4];
                String source = f[dash + 2];
                if (source.startsWith("/dev/") && real.startsWith(mountPoint) && mountPoint.length() > bestLen
                        && disks.containsKey(source.substring(5))) {
                    best = source.substring(5);
                    bestLen = mountPoint.length();
                }
            }
            if (best != null) {
                return best;
            }
        }
        return disks.values().stream().filter(k -> !k.name().startsWith("loop") && !k.name().startsWith("ram"))
                .max(Comparator.comparingLong(k -> k.reads() + k.writes())).map(ProcSnapshot.Disk::name)
                .orElseThrow(() -> new IOException("no block device in " + proc.resolve("diskstats")));
    }

    /** The whole disk of a partition ({@code vda1} -> {@code vda}, {@code nvme0n1p2} -> {@code nvme0n1}), if listed. */
    static Optional<String> wholeDisk(String device, Map<String, ProcSnapshot.Disk> disks) {
        String parent = device.matches(".*\\dp\\d+$") ? device.replaceAll("p\\d+$", "")
                : device.matches("[a-z]+\\d+$") ? device.replaceAll("\\d+$", "") : device;
        return !parent.equals(device) && disks.containsKey(parent) ? Optional.of(parent) : Optional.empty();
    }
}
