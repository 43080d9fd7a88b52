package io.rigscope.collectors.process;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A HotSpot JVM's performance counters, read from outside the JVM from its {@code hsperfdata} file
 * ({@code <tmp>/hsperfdata_<user>/<pid>}, what {@code jstat} reads): the long counters by name. The file is a
 * 32-byte prologue (magic {@code 0xcafec0c0}, byte order, version, ..., entry offset, entry count) and entries
 * (length, name offset, vector length, type, flags, units, variability, data offset). A JVM started with
 * {@code -XX:-UsePerfData} has no file. Not thread-safe; one reader per process.
 */
final class HsPerfData {

    private static final int MAGIC = 0xcafec0c0;

    private final Path file;

    private HsPerfData(Path file) {
        this.file = file;
    }

    /** The file of process {@code pid} under {@code tmp} ({@code /tmp}), if there is one. */
    static Optional<HsPerfData> find(Path tmp, long pid) {
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(tmp, "hsperfdata_*")) {
            for (Path dir : dirs) {
                Path f = dir.resolve(Long.toString(pid));
                if (Files.isRegularFile(f)) {
                    return Optional.of(new HsPerfData(f));
                }
            }
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
        return Optional.empty();
    }

    /** The long counters now, by name; empty when the file cannot be read or is not a perf-data file. */
    Map<String, Long> longs() {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            return Map.of();
        }
        return parse(bytes);
    }

    static Map<String, Long> parse(byte[] bytes) {
        Map<String, Long> out = new HashMap<>();
        if (bytes.length < 32) {
            return out;
        }
        ByteBuffer b = ByteBuffer.wrap(bytes);
        if (b.order(ByteOrder.BIG_ENDIAN).getInt(0) != MAGIC) {
            return out;
        }
        b.order(bytes[4] == 0 ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
        int entryOffset = b.getInt(24);
        int entries = b.getInt(28);
        int at = entryOffset;
        for (int i = 0; i < entries && at > 0 && at + 20 <= bytes.length; i++) {
            int length = b.getInt(at);
            int nameOffset = b.getInt(at + 4);
            int vectorLength = b.getInt(at + 8);
            byte type = b.get(at + 12);
            int dataOffset = b.getInt(at + 16);
            if (length <= 0) {
                break;
            }
            if (type == 'J' && vectorLength == 0 && at + dataOffset + 8 <= bytes.length) {
                int nameStart = at + nameOffset;
                int nameEnd = nameStart;
                while (nameEnd < bytes.length && bytes[nameEnd] != 0) {
                    nameEnd++;
                }
                out.put(new String(bytes, nameStart, nameEnd - nameStart, StandardCharsets.US_ASCII),
                        b.getLong(at + dataOffset));
            }
            at += length;
        }
        return out;
    }
}
