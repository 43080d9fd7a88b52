package io.rigscope.importers.k6.follow;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FollowedFileTest {

    private static final Duration WAIT = Duration.ofMillis(10);

    @TempDir
    Path dir;

    @Test
    void itWaitsForTheFileThenReadsWhatIsAppended() throws Exception {
        Path file = dir.resolve("out.json");
        List<String> notes = new ArrayList<>();
        try (FollowedFile f = new FollowedFile(file, notes::add)) {
            assertThat(f.poll(WAIT)).isEmpty();
            append(file, "a\nb\n");
            assertThat(f.poll(WAIT)).containsExactly("a", "b");
            append(file, "c\r\n");
            assertThat(f.poll(WAIT)).containsExactly("c");
        }
        assertThat(notes).containsExactly("waiting for " + file + " to appear", "following " + file);
    }

    @Test
    void aLastLineWithoutItsNewlineWaitsForIt() throws Exception {
        Path file = dir.resolve("out.json");
        append(file, "whole\n{\"half\":");
        try (FollowedFile f = new FollowedFile(file, s -> { })) {
            assertThat(f.poll(WAIT)).containsExactly("whole");
            assertThat(f.poll(WAIT)).isEmpty();
            assertThat(f.remainder()).isEqualTo("{\"half\":");
            append(file, "1}\n");
            assertThat(f.poll(WAIT)).containsExactly("{\"half\":1}");
            assertThat(f.remainder()).isNull();
        }
    }

    @Test
    void aTruncatedFileIsReadAgainFromItsStart() throws Exception {
        Path file = dir.resolve("out.json");
        append(file, "first run 1\nfirst run 2\n");
        List<String> notes = new ArrayList<>();
        try (FollowedFile f = new FollowedFile(file, notes::add)) {
            assertThat(f.poll(WAIT)).hasSize(2);
            Files.writeString(file, "2\n", StandardOpenOption.TRUNCATE_EXISTING); // k6 run again, same --out
            assertThat(f.poll(WAIT)).isEmpty();
            assertThat(f.poll(WAIT)).containsExactly("2");
        }
        assertThat(notes).anySatisfy(n -> assertThat(n).contains("was truncated").contains("from its start"));
    }

    @Test
    void aReplacedFileIsReadToItsEndThenTheNewOneFromItsStart() throws Exception {
        Path file = dir.resolve("out.json");
        append(file, "old 1\n");
        List<String> notes = new ArrayList<>();
        try (FollowedFile f = new FollowedFile(file, notes::add)) {
            assertThat(f.poll(WAIT)).containsExactly("old 1");
            append(file, "old 2\n");
            Files.move(file, dir.resolve("out.json.1"));
            append(file, "new 1\n");
            List<String> lines = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                lines.addAll(f.poll(WAIT));
            }
            assertThat(lines).containsExactly("old 2", "new 1");
        }
        assertThat(notes).anySatisfy(n -> assertThat(n).contains("was replaced"));
    }

    private static void append(Path file, String text) throws IOException {
        Files.writeString(file, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }
}
