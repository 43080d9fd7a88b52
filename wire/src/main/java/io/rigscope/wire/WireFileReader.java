package io.rigscope.wire;

import io.rigscope.model.codec.Decoded;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.model.codec.WireLine;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;
import reactor.core.publisher.Flux;
import reactor.core.scheduler.Schedulers;

/**
 * Reads a wire file back ({@code --input FILE.jsonl}, {@code .gz} accepted) as decoded records. A line that
 * cannot be decoded comes out as {@link Decoded.Failed} with its file and line number as the origin; blank
 * lines are skipped.
 */
public final class WireFileReader {

    private WireFileReader() {
    }

    /** A cold Flux of the file's lines, read on a bounded-elastic thread. */
    public static Flux<Decoded> read(Path path, WireCodec codec) {
        return Flux.using(() -> open(path),
                        reader -> Flux.<Decoded, long[]>generate(() -> new long[1], (lineNo, sink) -> {
                            try {
                                String line;
                                do {
                                    line = reader.readLine();
                                    lineNo[0]++;
                                } while (line != null && line.isBlank());
                                if (line == null) {
                                    sink.complete();
                                } else {
                                    sink.next(WireLine.parse(codec, line, path.getFileName() + ":" + lineNo[0]));
                                }
                            } catch (IOException e) {
                                sink.error(new IOException("cannot read wire file " + path + ": " + e.getMessage(), e));
                            }
                            return lineNo;
                        }),
                        reader -> {
                            try {
                                reader.close();
                            } catch (IOException ignored) {
                                // closing a reader we only read from
                            }
                        })
                .subscribeOn(Schedulers.boundedElastic());
    }

    private static BufferedReader open(Path path) throws IOException {
        InputStream in = Files.newInputStream(path);
        if (path.getFileName().toString().endsWith(".gz")) {
            in = new GZIPInputStream(in, 1 << 16);
        }
        return new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16);
    }
}
