package io.rigscope.collectors.pglog;

import java.util.List;

/**
 * One assembled log entry: a prefixed line with its continuation lines (tab-indented lines of a multi-line
 * message, and the DETAIL/HINT/CONTEXT/STATEMENT lines the same process wrote right after it).
 *
 * @param tsUs the first line's time, epoch µs, or null
 * @param pid the first line's process id, or null
 * @param level the first line's severity
 * @param lines the message text of every line, the first one without its prefix and severity
 */
record LogEntry(Long tsUs, Integer pid, String level, List<String> lines) {

    LogEntry {
        lines = List.copyOf(lines);
    }

    String firstLine() {
        return lines.get(0);
    }

    String text() {
        return String.join("\n", lines);
    }

    /** Collects an entry's lines. */
    static final class Builder {
        final Long tsUs;
        final Integer pid;
        final String level;
        private final java.util.ArrayList<String> lines = new java.util.ArrayList<>();

        Builder(Long tsUs, Integer pid, String level, String first) {
            this.tsUs = tsUs;
            this.pid = pid;
            this.level = level;
            lines.add(first);
        }

        void add(String line) {
            lines.add(line);
        }

        int size() {
            return lines.size();
        }

        LogEntry build() {
            return new LogEntry(tsUs, pid, level, lines);
        }
    }
}
