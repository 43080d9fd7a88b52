package io.rigscope.generator.plan;

import java.io.IOException;
import java.io.Reader;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads CSV records (RFC 4180: comma-separated fields, LF or CRLF between records, double-quoted fields that may
 * hold commas, line breaks and {@code ""} for one quote) one at a time. A quote inside an unquoted field is kept as
 * text. Not thread-safe.
 */
final class CsvRecords {
    private final Reader in;
    private final String at;
    private int line = 1;
    private int pushedBack = -2;
    private int recordLine;

    CsvRecords(Reader in, String at) {
        this.in = in;
        this.at = at;
    }

    /** The line the record last returned by {@link #next} started on, from 1. */
    int recordLine() {
        return recordLine;
    }

    private int read() throws IOException {
        if (pushedBack != -2) {
            int c = pushedBack;
            pushedBack = -2;
            return c;
        }
        return in.read();
    }

    /** The next record's fields, or null at the end of the file. */
    List<String> next() throws IOException {
        int c = read();
        if (c < 0) {
            return null;
        }
        recordLine = line;
        List<String> fields = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        while (true) {
            if (quoted) {
                if (c < 0) {
                    throw new IllegalArgumentException(at + ": line " + recordLine + ": a quoted field is never closed");
                }
                if (c == '"') {
                    int d = read();
                    if (d == '"') {
                        field.append('"');
                    } else {
                        quoted = false;
                        c = d;
                        continue;
                    }
                } else {
                    if (c == '\n') {
                        line++;
                    }
                    field.append((char) c);
                }
            } else if (c == '"' && field.isEmpty()) {
                quoted = true;
            } else if (c == ',') {
                fields.add(field.toString());
                field.setLength(0);
            } else if (c == '\r' || c == '\n' || c < 0) {
                if (c == '\r') {
                    int d = read();
                    if (d != '\n') {
                        pushedBack = d;
                    }
                }
                if (c >= 0) {
                    line++;
                }
                fields.add(field.toString());
                return fields;
            } else {
                field.append((char) c);
            }
            c = read();
        }
    }
}
