package io.rigscope.importers.k6.follow;

import java.io.IOException;
import java.time.Duration;
import java.util.List;

/**
 * Where a k6 follower's lines come from: a file k6 writes ({@link FollowedFile}) or a topic xk6-output-kafka
 * writes ({@link K6Topic}). Blocking; one reader thread.
 */
public interface K6LineSource extends AutoCloseable {

    /** What the lines come from, for messages and dead letters: the file's path or {@code topic:T}. */
    String name();

    /** The next complete lines (without their line end), waiting up to {@code wait}; empty when none came. */
    List<String> poll(Duration wait) throws IOException;

    /** At the end: what is left without its line end (k6 stopped mid-line), or null. */
    String remainder();

    @Override
    void close() throws IOException;
}
