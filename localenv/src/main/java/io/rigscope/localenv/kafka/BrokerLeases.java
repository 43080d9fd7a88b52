package io.rigscope.localenv.kafka;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The leases on a detached embedded broker: one empty file per holding process, {@code <dataDir>/leases/<pid>}.
 * A command takes one while it uses the broker and drops it when it ends; the broker ({@link BrokerMain}) stops
 * itself once no live lease has been held for its idle period. A lease whose process is gone (killed, crashed) is
 * stale: it is not counted, and {@link #live} deletes it.
 *
 * <p>Stateless; the directory is the state. Safe from any thread and process.
 */
public final class BrokerLeases {

    static final String DIR_NAME = "leases";

    private final Path dir;

    /** The leases of the broker whose data directory is {@code dataDir}. */
    public BrokerLeases(Path dataDir) {
        this.dir = Objects.requireNonNull(dataDir, "dataDir").resolve(DIR_NAME);
    }

    /** Takes (or keeps) the lease of process {@code pid}. */
    public void take(long pid) {
        try {
            Files.createDirectories(dir);
            Path file = dir.resolve(Long.toString(pid));
            if (!Files.exists(file)) {
                Files.writeString(file, "");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot take a lease on the embedded broker in " + dir, e);
        }
    }

    /** Drops the lease of process {@code pid}, if it holds one. */
    public void drop(long pid) {
        try {
            Files.deleteIfExists(dir.resolve(Long.toString(pid)));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot drop the lease on the embedded broker in " + dir, e);
        }
    }

    /** The pids holding a live lease, ascending; stale leases (their process gone) are deleted on the way. */
    public List<Long> live() {
        List<Long> out = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return out;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
            for (Path f : files) {
                long pid;
                try {
                    pid = Long.parseLong(f.getFileName().toString());
                } catch (NumberFormatException notALease) {
                    continue;
                }
                if (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
                    out.add(pid);
                } else {
                    Files.deleteIfExists(f);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the leases on the embedded broker in " + dir, e);
        }
        out.sort(null);
        return out;
    }
}
