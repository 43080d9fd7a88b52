package io.rigscope.wire.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExecutableSearchTest {

    @Test
    void findsTheProgramInTheFirstDirectoryThatHoldsItExecutable(@TempDir Path root) throws Exception {
        Path first = Files.createDirectory(root.resolve("first"));
        Path second = Files.createDirectory(root.resolve("second"));
        Path third = Files.createDirectory(root.resolve("third"));
        Files.writeString(first.resolve("tool"), "not executable");
        Path found = executable(second.resolve("tool"));
        executable(third.resolve("tool"));

        assertThat(ExecutableSearch.onPath("tool", String.join(File.pathSeparator, first.toString(),
                second.toString(), third.toString()))).contains(found);
    }

    @Test
    void skipsEmptyEntriesAndDirectoriesNamedLikeTheProgram(@TempDir Path root) throws Exception {
        Path dirs = Files.createDirectory(root.resolve("dirs"));
        Files.createDirectory(dirs.resolve("tool"));
        Path bin = Files.createDirectory(root.resolve("bin"));
        Path found = executable(bin.resolve("tool"));

        assertThat(ExecutableSearch.onPath("tool", File.pathSeparator + dirs + File.pathSeparator + File.pathSeparator
                + bin)).contains(found);
    }

    @Test
    void findsNothingWithoutASearchPathOrAMatch(@TempDir Path root) {
        assertThat(ExecutableSearch.onPath("tool", null)).isEmpty();
        assertThat(ExecutableSearch.onPath("tool", "")).isEmpty();
        assertThat(ExecutableSearch.onPath("tool", root.toString())).isEmpty();
    }

    @Test
    void findsAProgramEveryHostHasOnThisProcessPath() {
        assertThat(ExecutableSearch.onPath("sh")).hasValueSatisfying(p -> assertThat(Files.isExecutable(p)).isTrue());
    }

    @Test
    void refusesANameWithADirectory() {
        assertThatThrownBy(() -> ExecutableSearch.onPath("bin/sh", "/usr")).hasMessageContaining("'bin/sh'");
    }

    private static Path executable(Path file) throws Exception {
        Files.writeString(file, "#!/bin/sh\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
        return file;
    }
}
