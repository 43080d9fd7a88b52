package io.rigscope.localenv.postgres;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A volume of its own for a private cluster: a sparse image file attached to a loop device, formatted ext4 and
 * mounted, whose IO can be capped like a cloud block volume's ({@link #cap(Spec)}). The cap is the kernel's
 * block-IO throttle on the loop device (cgroup v1 {@code blkio.throttle.*} of the root group), so it holds every
 * IO that reaches this volume, the kernel's own write-back of dirty pages included, and nothing else: the disk
 * canary, the broker and the JVMs keep the host disk's full speed, as they would beside an EBS or RDS volume.
 *
 * <p>Why: this machine's disk writes 1.5 GB/s with {@code O_DSYNC} ({@code dd bs=1M oflag=dsync}), so a vacuum's
 * gigabytes of full-page images are written back before a commit notices; the vacuum-storm fingerprint was
 * measured on volumes capped like {@link Spec#gp3Baseline() gp3's baseline}, where that write-back fills the
 * volume's queue and the committers' WAL flushes wait behind it.
 *
 * <p>Needs root, {@code losetup}, {@code mkfs.ext4}, {@code mount} and the cgroup v1 blkio controller;
 * {@link #unavailable()} says what is missing before anything is created. Blocking.
 */
public final class LoopVolume implements AutoCloseable {

    private static final Path THROTTLE = Path.of("/sys/fs/cgroup/blkio");

    /**
     * A volume's caps: bytes per second and operations per second, applied to reads and to writes separately (a
     * cloud volume caps their sum; a mixed load gets up to twice here).
     */
    public record Spec(long bytesPerSecond, long iops, String name) {
        public Spec {
            if (bytesPerSecond <= 0 || iops <= 0) {
                throw new IllegalArgumentException("volume caps must be positive, were " + bytesPerSecond
                        + " B/s and " + iops + " IOPS");
            }
        }

        /** EBS gp3's baseline: 125 MiB/s and 3,000 IOPS (AWS's documented figures for a gp3 volume as created). */
        public static Spec gp3Baseline() {
            return new Spec(125L << 20, 3000, "gp3 baseline");
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%s (%d MiB/s, %,d IOPS)", name, bytesPerSecond >> 20, iops);
        }
    }

    private final Path image;
    private final Path mountPoint;
    private final String loopDevice;
    private final String majorMinor;
    private Spec capped;
    private boolean closed;

    private LoopVolume(Path image, Path mountPoint, String loopDevice, String majorMinor) {
        this.image = image;
        this.mountPoint = mountPoint;
        this.loopDevice = loopDevice;
        this.majorMinor = majorMinor;
    }

    /** What this machine lacks for a loop volume with a cap, or empty when it has everything. */
    public static Optional<String> unavailable() {
        if (!"root".equals(System.getProperty("user.name"))) {
            return Optional.of("a loop volume needs root (running as " + System.getProperty("user.name") + ")");
        }
        if (!Files.exists(Path.of("/dev/loop-control"))) {
            return Optional.of("no loop devices (/dev/loop-control is absent)");
        }
        for (String tool : List.of("losetup", "mkfs.ext4", "mount", "umount")) {
            if (which(tool).isEmpty()) {
                return Optional.of(tool + " is not installed");
            }
        }
        if (!Files.isWritable(THROTTLE.resolve("blkio.throttle.write_bps_device"))) {
            return Optional.of("no cgroup v1 blkio throttle (" + THROTTLE.resolve("blkio.throttle.write_bps_device")
                    + " is not writable)");
        }
        return Optional.empty();
    }

    /**
     * Creates a sparse image of {@code sizeBytes} (it takes host disk space only as it is written), attaches it to
     * a free loop device, formats it ext4 and mounts it at {@code mountPoint}. Uncapped until {@link #cap}.
     *
     * @throws IllegalStateException naming the step that failed, with the tool's output
     */
    public static LoopVolume create(Path image, Path mountPoint, long sizeBytes) {
        unavailable().ifPresent(why -> {
            throw new IllegalStateException("cannot create a loop volume: " + why);
        });
        try {
            Files.createDirectories(mountPoint);
            try (var f = new java.io.RandomAccessFile(image.toFile(), "rw")) {
                f.setLength(sizeBytes);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the volume image " + image, e);
        }
        // direct IO: the loop device writes through to the host disk without a second page cache hiding its fsyncs
        String device = run(60, "losetup", "--find", "--show", "--direct-io=on", image.toString());
        LoopVolume volume = new LoopVolume(image, mountPoint, device,
                run(10, "lsblk", "--nodeps", "--noheadings", "--output", "MAJ:MIN", device).strip());
        try {
            volume.throttle(0, 0); // a rule left on this loop device by a process that was killed
            run(120, "mkfs.ext4", "-q", "-F", device);
            run(30, "mount", "-o", "noatime", device, mountPoint.toString());
        } catch (RuntimeException e) {
            volume.close();
            throw e;
        }
        return volume;
    }

    /** Caps this volume's IO from now on (replacing an earlier cap). */
    public void cap(Spec spec) {
        throttle(spec.bytesPerSecond(), spec.iops());
        capped = spec;
    }

    /** Lifts the cap: the volume runs at the host disk's speed again. */
    public void uncap() {
        if (capped != null) {
            throttle(0, 0);
            capped = null;
        }
    }

    public Path mountPoint() {
        return mountPoint;
    }

    /** A directory on the host's disk beside the volume's image (where the volume's IO finally goes). */
    public Path hostDirectory() {
        return image.toAbsolutePath().getParent();
    }

    /** For the console: the device, its size and its cap now. */
    public String describe() {
        return String.format(Locale.ROOT, "loop volume %s (%s) mounted at %s, %s", loopDevice, majorMinor,
                mountPoint, capped == null ? "not capped" : "capped at " + capped);
    }

    /** Lifts the cap, unmounts, detaches the loop device and deletes the image. Idempotent; best effort. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            uncap();
        } catch (RuntimeException e) {
            System.err.println("rigscope: " + e.getMessage());
        }
        for (List<String> step : List.of(List.of("umount", mountPoint.toString()), List.of("losetup", "-d",
                loopDevice))) {
            try {
                run(60, step.toArray(String[]::new));
            } catch (RuntimeException e) {
                if (step.get(0).equals("umount") && !isMounted()) {
                    continue; // never mounted (mkfs failed)
                }
                System.err.println("rigscope: could not clean up the loop volume: " + e.getMessage());
            }
        }
        try {
            Files.deleteIfExists(image);
        } catch (IOException e) {
            System.err.println("rigscope: could not delete " + image + ": " + e.getMessage());
        }
    }

    private boolean isMounted() {
        try {
            return Files.readAllLines(Path.of("/proc/mounts")).stream()
                    .anyMatch(l -> l.startsWith(loopDevice + " "));
        } catch (IOException e) {
            return true;
        }
    }

    private void throttle(long bytesPerSecond, long iops) {
        // 0 removes the device's rule
        for (String file : List.of("write_bps_device", "read_bps_device")) {
            write(THROTTLE.resolve("blkio.throttle." + file), majorMinor + " " + bytesPerSecond);
        }
        for (String file : List.of("write_iops_device", "read_iops_device")) {
            write(THROTTLE.resolve("blkio.throttle." + file), majorMinor + " " + iops);
        }
    }

    private static void write(Path file, String text) {
        try {
            Files.writeString(file, text, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write '" + text + "' to " + file, e);
        }
    }

    private static Optional<Path> which(String tool) {
        for (String dir : List.of("/usr/sbin", "/usr/bin", "/sbin", "/bin")) {
            Path p = Path.of(dir, tool);
            if (Files.isExecutable(p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    private static String run(int timeoutSec, String... command) {
        return Commands.run(List.of(), List.of(command), null, timeoutSec);
    }
}
