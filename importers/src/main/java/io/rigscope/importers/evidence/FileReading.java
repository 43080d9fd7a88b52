package io.rigscope.importers.evidence;

import java.nio.file.Path;
import java.util.List;

/**
 * What rescan made of one file of an evidence directory.
 *
 * @param file the file
 * @param kind what it was recognised as, or null when nothing in rescan reads it
 * @param lines lines (or JSON documents) read
 * @param records records it gave to the topics
 * @param badLines lines (or documents) that could not be read: counted, never fatal
 * @param notes what else there is to say (the first bad line and why, points outside every repeat, ...)
 */
public record FileReading(Path file, EvidenceKind kind, long lines, long records, long badLines, List<String> notes) {

    public FileReading {
        notes = List.copyOf(notes);
    }

    /** True when the file gave at least one record. */
    public boolean readable() {
        return records > 0;
    }

    /** One console line: {@code k6.json: k6 json, 2,400 lines, 2,412 records, 1 bad (line 17: ...)}. */
    public String line() {
        String what = kind == null ? "not recognised" : kind.label();
        return String.format("%s: %s, %,d lines, %,d records, %,d bad%s", file.getFileName(), what, lines, records,
                badLines, notes.isEmpty() ? "" : " (" + String.join("; ", notes) + ")");
    }
}
