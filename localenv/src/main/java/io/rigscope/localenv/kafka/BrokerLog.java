package io.rigscope.localenv.kafka;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.StreamHandler;

/**
 * Kafka's own logging, sent to {@code <dataDir>/broker.log} while the embedded broker runs, and away from the
 * console: its start-up race (a broker registering before its controller is active) logs ERRORs with stack traces
 * that are part of a normal start.
 *
 * <p>Works through {@code java.util.logging}: the file gets Kafka's lines when SLF4J is bound to it
 * ({@code slf4j-jdk14}, as in the rigscope jar). The loggers {@code kafka}, {@code org.apache.kafka} and
 * {@code state.change.logger} (the broker's and, in the same JVM, the clients') log at INFO into the file only,
 * not to their parents' handlers; {@link #close()} puts them back as they were. Logger configuration is global to
 * the JVM: two brokers in one JVM both write to both files.
 *
 * <p>Not thread-safe: open and close from one thread.
 */
final class BrokerLog implements AutoCloseable {

    /** The file's name in the broker's data directory. */
    static final String FILE_NAME = "broker.log";

    /** At start, a file larger than this moves to {@code broker.log.1} (replacing an older one). */
    private static final long ROLL_BYTES = 16L * 1024 * 1024;

    private static final List<String> LOGGER_NAMES = List.of("kafka", "org.apache.kafka", "state.change.logger");

    private final Path file;
    private final Handler handler;
    /** Strong references: java.util.logging forgets the settings of a logger nobody holds. */
    private final List<Logger> loggers = new ArrayList<>();
    private final List<Level> previousLevels = new ArrayList<>();
    private final List<Boolean> previousUseParent = new ArrayList<>();

    private BrokerLog(Path file, Handler handler) {
        this.file = file;
        this.handler = handler;
    }

    /**
     * Opens {@code <dataDir>/broker.log} for appending and routes Kafka's loggers into it.
     *
     * @throws IOException if the file cannot be opened
     */
    static BrokerLog open(Path dataDir) throws IOException {
        Path file = dataDir.resolve(FILE_NAME);
        if (Files.exists(file) && Files.size(file) > ROLL_BYTES) {
            Files.move(file, dataDir.resolve(FILE_NAME + ".1"), StandardCopyOption.REPLACE_EXISTING);
        }
        OutputStream out = Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        StreamHandler handler = new FlushingHandler(out);
        handler.setLevel(Level.ALL);
        BrokerLog log = new BrokerLog(file, handler);
        for (String name : LOGGER_NAMES) {
            Logger logger = Logger.getLogger(name);
            log.loggers.add(logger);
            log.previousLevels.add(logger.getLevel());
            log.previousUseParent.add(logger.getUseParentHandlers());
            logger.setLevel(Level.INFO);
            logger.setUseParentHandlers(false);
            logger.addHandler(handler);
        }
        Logger.getLogger("kafka").info("rigscope: starting the embedded broker in " + dataDir);
        return log;
    }

    /** The file. */
    Path file() {
        return file;
    }

    /** Puts the loggers back as they were and closes the file. Idempotent. */
    @Override
    public void close() {
        for (int i = 0; i < loggers.size(); i++) {
            Logger logger = loggers.get(i);
            logger.removeHandler(handler);
            logger.setLevel(previousLevels.get(i));
            logger.setUseParentHandlers(previousUseParent.get(i));
        }
        loggers.clear();
        handler.close();
    }

    /** A stream handler that flushes every record: the file is read when something went wrong. */
    private static final class FlushingHandler extends StreamHandler {
        FlushingHandler(OutputStream out) {
            super(out, new OneLineFormatter());
        }

        @Override
        public synchronized void publish(LogRecord record) {
            super.publish(record);
            flush();
        }
    }

    /** {@code 2026-11-30 19:27:38.123 SEVERE kafka.server.ControllerApis: message}, then a stack trace if any. */
    private static final class OneLineFormatter extends Formatter {
        private static final DateTimeFormatter TIME =
                DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS").withZone(ZoneId.systemDefault());

        @Override
        public String format(LogRecord record) {
            StringBuilder b = new StringBuilder(160);
            b.append(TIME.format(Instant.ofEpochMilli(record.getMillis()))).append(' ')
                    .append(record.getLevel().getName()).append(' ')
                    .append(record.getLoggerName()).append(": ")
                    .append(formatMessage(record)).append(System.lineSeparator());
            if (record.getThrown() != null) {
                StringWriter trace = new StringWriter();
                record.getThrown().printStackTrace(new PrintWriter(trace));
                b.append(trace);
            }
            return b.toString();
        }
    }
}
