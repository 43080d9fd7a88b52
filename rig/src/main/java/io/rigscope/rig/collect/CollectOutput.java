package io.rigscope.rig.collect;

import io.rigscope.localenv.kafka.KafkaEndpoint;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.model.wire.WireRecord;
import io.rigscope.rig.options.KafkaOptions;
import io.rigscope.rig.options.KafkaOptions.JournaledPublisher;
import io.rigscope.wire.WireFileWriter;
import io.rigscope.wire.WirePublisher;
import io.rigscope.wire.kafka.KafkaClients;
import io.rigscope.wire.kafka.TopicAdmin;
import java.nio.file.Path;

/**
 * Where {@code rigscope collect} writes: Kafka (the rigscope topics ensured; {@code --out} too when given), or only
 * the {@code --out} wire file with {@code --no-kafka}. With Kafka, every record is first appended to the write-ahead
 * journal {@code <data-dir>/journal/rigscope-journal-<name>@<nonce>.bin} ({@link JournaledPublisher}, the generator's
 * {@code SampleJournal}), and journals an earlier command left there are published first. Closing it closes the
 * publisher, the journal (deleted when everything was acknowledged), the file and a broker it started. Not
 * thread-safe: {@link #write} from one thread.
 */
final class CollectOutput implements AutoCloseable {

    private final KafkaEndpoint endpoint;
    private final WirePublisher publisher;
    private final WireFileWriter fileOnly;
    private final Path out;
    private final JournaledPublisher journaled;

    private CollectOutput(KafkaEndpoint endpoint, JournaledPublisher journaled, WireFileWriter fileOnly, Path out) {
        this.journaled = journaled;
        this.endpoint = endpoint;
        this.publisher = journaled == null ? null : journaled.publisher();
        this.fileOnly = fileOnly;
        this.out = out;
    }

    /**
     * @param noKafka only the wire file {@code out} (then not null)
     * @param clientId the producer's client id
     * @param journalName the journal's name, {@code collect-<series>}: what command and stream it holds
     */
    static CollectOutput open(KafkaOptions kafka, boolean noKafka, Path out, String clientId, String journalName) {
        WireCodec codec = new WireCodec();
        if (noKafka) {
            return new CollectOutput(null, null, new WireFileWriter(out, codec), out);
        }
        KafkaEndpoint endpoint = kafka.open();
        try {
            try (TopicAdmin admin = new TopicAdmin(endpoint.clients())) {
                admin.ensureTopics();
            }
            JournaledPublisher.Leftovers.publish(endpoint, kafka.journalDir(), System.err);
            WirePublisher.Options options = WirePublisher.Options.defaults().withClientId(clientId);
            return new CollectOutput(endpoint, JournaledPublisher.open(endpoint.clients(), kafka.journalDir(),
                    journalName, codec, out == null ? options : options.withOutFile(out)), null, out);
        } catch (RuntimeException e) {
            endpoint.close();
            throw e;
        }
    }

    /**
     * The one console line when records were not published (call after {@link #flush}), naming the journal that
     * keeps them; null when everything was acknowledged.
     */
    String notPublishedLine() {
        return journaled == null ? null : journaled.notPublishedLine();
    }

    /** Publishes (or writes) one record. */
    void write(WireRecord record) {
        if (publisher != null) {
            publisher.publish(record);
        } else {
            fileOnly.write(record);
        }
    }

    /** The Kafka cluster written to, with the user's client properties; null with {@code --no-kafka}. */
    KafkaClients clients() {
        return endpoint == null ? null : endpoint.clients();
    }

    /** Waits until every record published so far is acknowledged (or failed). */
    void flush() {
        if (publisher != null) {
            publisher.flush();
        }
    }

    /** True when a record could not be published. */
    boolean failed() {
        return publisher != null && publisher.failed() > 0;
    }

    /** What was published and where it went, for the last console line: {@code "; published N, ..."}. */
    String summary() {
        return (publisher == null ? "" : "; published " + publisher.published() + ", acked " + publisher.acked()
                + ", failed " + publisher.failed()) + (out == null ? "" : "; wire file " + out);
    }

    @Override
    public void close() {
        if (journaled != null) {
            journaled.close();
        }
        if (fileOnly != null) {
            fileOnly.close();
        }
        if (endpoint != null) {
            endpoint.close();
        }
    }
}
