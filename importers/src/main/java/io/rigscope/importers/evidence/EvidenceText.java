package io.rigscope.importers.evidence;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;
import java.util.zip.GZIPInputStream;

/** Reading an evidence file's text: gzip told by its magic bytes, never by its name; JSON lines or documents. */
final class EvidenceText {

    static final ObjectMapper JSON = JsonMapper.builder().build();

    private EvidenceText() {
    }

    /** The file as text, decompressed when it starts with gzip's magic. */
    static BufferedReader open(Path file) throws IOException {
        InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16);
        in.mark(2);
        int b0 = in.read();
        int b1 = in.read();
        in.reset();
        if (b0 == 0x1f && b1 == 0x8b) {
            in = new GZIPInputStream(in, 1 << 16);
        }
        return new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16);
    }

    /** What is done with one non-blank line of a file; {@code n} is its line number, from 1. */
    interface Line<T> {
        void accept(long n, T line);
    }

    /** Every non-blank line of the file, in order, each counted in {@code tally.lines}. */
    static void eachLine(Path file, Tally tally, Line<String> each) throws IOException {
        try (BufferedReader r = open(file)) {
            String line;
            long n = 0;
            while ((line = r.readLine()) != null) {
                n++;
                if (line.isBlank()) {
                    continue;
                }
                tally.lines++;
                each.accept(n, line);
            }
        }
    }

    /** Every non-blank line of the file as JSON, as {@link #eachLine}; a line that is not JSON is counted bad. */
    static void eachJsonLine(Path file, Tally tally, Line<JsonNode> each) throws IOException {
        eachLine(file, tally, (n, line) -> {
            JsonNode node;
            try {
                node = JSON.readTree(line);
            } catch (IOException e) {
                tally.bad(n, "not JSON");
                return;
            }
            each.accept(n, node);
        });
    }

    /** True when the first non-blank line is a whole JSON value (JSON lines); false for pretty-printed JSON. */
    static boolean jsonLines(Path file) throws IOException {
        try (BufferedReader r = open(file)) {
            String line;
            while ((line = r.readLine()) != null) {
                if (!line.isBlank()) {
                    try {
                        JSON.readTree(line);
                        return true;
                    } catch (IOException e) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    /**
     * Every JSON value of the file, top-level arrays opened: one a line (a line that is not JSON is counted bad
     * and skipped) or, for pretty-printed files, one root value after another (a value that is not JSON is
     * counted bad and ends the file: nothing after it can be found again).
     */
    static void values(Path file, Tally tally, Consumer<JsonNode> each) throws IOException {
        if (jsonLines(file)) {
            eachJsonLine(file, tally, (n, node) -> opened(node, each));
            return;
        }
        try (BufferedReader r = open(file);
             JsonParser p = JSON.getFactory().createParser(r);
             MappingIterator<JsonNode> it = JSON.readerFor(JsonNode.class).readValues(p)) {
            while (true) {
                JsonNode node;
                try {
                    if (!it.hasNextValue()) {
                        break;
                    }
                    node = it.nextValue();
                } catch (IOException | RuntimeException e) {
                    tally.lines++;
                    tally.bad(p.getCurrentLocation().getLineNr(), "not JSON; the rest of the file is skipped");
                    break;
                }
                tally.lines++;
                opened(node, each);
            }
        }
    }

    private static void opened(JsonNode node, Consumer<JsonNode> each) {
        if (node.isArray()) {
            node.forEach(each);
        } else {
            each.accept(node);
        }
    }
}
