package io.rigscope.wire.host;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * Finds a program the way a shell does: the first directory of {@code $PATH}, in order, that holds an executable
 * file of that name. Empty entries of {@code $PATH} are skipped (a shell would read them as the working directory;
 * rigscope never runs a program from there by accident).
 *
 * <p>Stateless and thread-safe; each call reads the file system.
 *
 * <pre>{@code
 * Optional<Path> wrk = ExecutableSearch.onPath("wrk");
 * }</pre>
 */
public final class ExecutableSearch {

    private ExecutableSearch() {
    }

    /**
     * The program {@code name} on this process's {@code $PATH}.
     *
     * @param name a file name, no directory ({@code pgbench})
     * @return its path; empty when no directory of {@code $PATH} holds it executable, or there is no {@code $PATH}
     */
    public static Optional<Path> onPath(String name) {
        return onPath(name, System.getenv("PATH"));
    }

    /**
     * The program {@code name} in the first directory of {@code searchPath} that holds it executable.
     *
     * @param name a file name, no directory
     * @param searchPath directories joined by {@link File#pathSeparator}, as {@code $PATH} is; null finds nothing
     */
    public static Optional<Path> onPath(String name, String searchPath) {
        Objects.requireNonNull(name, "name");
        if (name.isBlank() || name.contains("/") || name.contains(File.separator)) {
            throw new IllegalArgumentException("'" + name + "' is not a program's file name");
        }
        if (searchPath == null) {
            return Optional.empty();
        }
        for (String dir : searchPath.split(File.pathSeparator)) {
            if (dir.isEmpty()) {
                continue;
            }
            Path candidate = Path.of(dir, name);
            if (Files.isExecutable(candidate) && !Files.isDirectory(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }
}
