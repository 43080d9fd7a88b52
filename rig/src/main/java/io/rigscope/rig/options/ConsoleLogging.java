package io.rigscope.rig.options;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.logging.LogManager;

/**
 * Sets up {@code java.util.logging} (what SLF4J is bound to in the rigscope jar) from
 * {@code rigscope-logging.properties}: warnings and errors of libraries on stderr, one line each; Kafka's loggers
 * quiet on the console (an embedded broker sends them to its {@code broker.log}).
 *
 * <p>Call once, first thing in {@code main}, before any logger exists: it replaces the JVM's logging configuration.
 * A {@code -Djava.util.logging.config.file} or {@code config.class} given on the command line wins.
 */
public final class ConsoleLogging {

    static final String RESOURCE = "/rigscope-logging.properties";

    private ConsoleLogging() {
    }

    public static void configure() {
        if (System.getProperty("java.util.logging.config.file") != null
                || System.getProperty("java.util.logging.config.class") != null) {
            return;
        }
        try (InputStream in = ConsoleLogging.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the rigscope jar");
            }
            LogManager.getLogManager().readConfiguration(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE + ": " + e.getMessage(), e);
        }
    }
}
