package io.rigscope.rig.options;

import io.rigscope.generator.outbox.SampleJournal;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.wire.WirePublisher;
import io.rigscope.wire.kafka.KafkaClients;
import java.nio.file.Path;
import java.util.Objects;
import io.rigscope.localenv.kafka.KafkaEndpoint;
import java.nio.file.Files;
import java.util.Locale;

/**
 * The rule for every part of rigscope that publishes records it made itself ({@code collect}'s telemetry, the
 * analyzer's verdicts and dead letters in {@code analyze}, {@code run}, {@code demo} and {@code experiment},
 * {@code rescan}, {@code import k6}): each record is appended to a write-ahead journal ({@link SampleJournal}, the
 * generator's, in {@code <data-dir>/journal}, named for the command and its stream: {@code collect-<series>},
 * {@code analyze-<series>}...) before the producer takes it, and the broker's acknowledgements are counted in its
 * header. A broker that goes away is retried by the producer, in order, until it comes back or the delivery limit
 * ({@code --kafka-delivery-timeout}) passes; what it never took stays in the journal, which {@code rigscope recover}
 * (or the next command on that data directory) publishes. Closing it closes the publisher, then the journal: deleted
 * when every record was acknowledged, kept otherwise.
 *
 * <p>Thread-safe as {@link WirePublisher} is.
 */
public final class JournaledPublisher implements AutoCloseable {

    private final WirePublisher publisher;
    private final SampleJournal journal;

    private JournaledPublisher(WirePublisher publisher, SampleJournal journal) {
        this.publisher = publisher;
        this.journal = journal;
    }

    /**
     * Creates the journal {@code <journalDir>/rigscope-journal-<name>@<nonce>.bin} and a publisher on {@code clients}
     * that appends every record to it before the send.
     *
     * @param name what command and stream the journal holds: {@code analyze-<series>}, {@code collect-<series>}...
     */
    public static JournaledPublisher open(KafkaClients clients, Path journalDir, String name, WireCodec codec,
                                          WirePublisher.Options options) {
        Objects.requireNonNull(clients, "clients");
        SampleJournal journal = SampleJournal.create(Objects.requireNonNull(journalDir, "journalDir"), name, codec);
        try {
            return new JournaledPublisher(new WirePublisher(clients, codec, options, journal), journal);
        } catch (RuntimeException e) {
            journal.close();
            throw e;
        }
    }

    /** The publisher: every record it sends is journalled first. */
    public WirePublisher publisher() {
        return publisher;
    }

    /** The journal's file. */
    public Path journal() {
        return journal.path();
    }

    /** Waits until every record handed over so far is acknowledged or failed. Blocking. */
    public void flush() {
        publisher.flush();
    }

    /** True when the broker did not take a record (call after {@link #flush}). */
    public boolean failed() {
        return publisher.failed() > 0;
    }

    /**
     * The one console line when records were not published (call after {@link #flush}): how many, the last error,
     * and the journal that keeps them; null when every record was acknowledged.
     */
    public String notPublishedLine() {
        if (!failed()) {
            return null;
        }
        Exception last = publisher.lastError();
        return "kafka: " + publisher.failed() + " record(s) were not published (last error: "
                + (last == null ? "none" : last.getClass().getSimpleName() + ": " + last.getMessage()) + "); "
                + journal.unacknowledged() + " record(s) are in the journal " + journal.path()
                + ": 'rigscope recover' publishes them";
    }

    /** Closes the publisher (flushing it), then the journal: deleted when every record was acknowledged. */
    @Override
    public void close() {
        try {
            publisher.close();
        } finally {
            journal.close();
        }
    }

    /**
     * The write-ahead journals ({@code generator.outbox.SampleJournal}, in {@link KafkaOptions#journalDir()}) an earlier
     * command left behind: what every command that publishes to Kafka does first, and the line {@code rigscope recover}
     * prints for a journal it keeps. Stateless; the caller's thread.
     */
    public static final class Leftovers {

        private Leftovers() {
        }

        /**
         * What {@code run}, {@code demo}, {@code collect} and {@code analyze} do first: publish the journals an earlier
         * command on the same data directory left in {@code dir} (a broker that did not come back in time, a kill), with
         * a publisher of their own (not the command's, so nothing of another series reaches its {@code --out} file); one
         * line per journal. Nothing when the directory has none.
         */
        public static void publish(KafkaEndpoint endpoint, Path dir, java.io.PrintStream console) {
            if (!Files.isDirectory(dir)) {
                return;
            }
            try (var files = Files.list(dir)) {
                if (files.noneMatch(f -> f.getFileName().toString().startsWith("rigscope-journal-"))) {
                    return;
                }
            } catch (java.io.IOException e) {
                console.println("recover: cannot list " + dir + ": " + e.getMessage());
                return;
            }
            WireCodec codec = new WireCodec();
            try (WirePublisher publisher = new WirePublisher(endpoint.clients(), codec,
                    WirePublisher.Options.defaults().withClientId("rigscope-recover"))) {
                for (SampleJournal.Recovered r : SampleJournal.recover(dir, null, SampleJournal.Destination.of(publisher),
                        codec)) {
                    if (r.complete()) {
                        console.printf(Locale.ROOT, "recover: published what an earlier command left in %s: %d record(s)"
                                + " (%d sample(s))%n", r.file(), r.published(), r.samples());
                    } else {
                        console.println(kept(r));
                    }
                }
            }
        }

        /** The one line for a journal recovery kept. */
        public static String kept(SampleJournal.Recovered r) {
            return String.format(Locale.ROOT, "recover: kept the journal %s: %d of %d record(s) not published (%s); "
                    + "'rigscope recover' publishes them once the broker is back", r.file(), r.failed(), r.entries(),
                    r.error());
        }
    }
}
