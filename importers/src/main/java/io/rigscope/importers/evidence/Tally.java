package io.rigscope.importers.evidence;

import io.rigscope.importers.k6.K6Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Counts what one file gave while it is read; becomes a {@link FileReading}. Not thread-safe. */
final class Tally implements K6Files.Counts {

    private static final int MAX_NOTES = 3;

    final Path file;
    final EvidenceKind kind;
    long lines;
    long records;
    long bad;
    private final List<String> notes = new ArrayList<>();

    Tally(Path file, EvidenceKind kind) {
        this.file = file;
        this.kind = kind;
    }

    @Override
    public void line() {
        lines++;
    }

    @Override
    public void record() {
        records++;
    }

    /** A line that could not be read; the first few are noted with their reason. */
    @Override
    public void bad(long lineNo, String why) {
        bad++;
        if (bad <= 2) {
            String text = why.length() > 160 ? why.substring(0, 160) + "..." : why;
            note("line " + lineNo + ": " + text);
        }
    }

    @Override
    public void note(String text) {
        if (notes.size() < MAX_NOTES) {
            notes.add(text);
        }
    }

    FileReading reading() {
        return new FileReading(file, kind, lines, records, bad, notes);
    }
}
