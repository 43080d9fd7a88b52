package io.rigscope.rig.options;

import io.rigscope.generator.outbox.SampleJournal;
import io.rigscope.localenv.kafka.KafkaEndpoint;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.wire.WirePublisher;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The write-ahead journals ({@code generator.outbox.SampleJournal}, in {@link KafkaOptions#journalDir()}) an earlier
 * command left behind: what every command that publishes to Kafka does first, and the line {@code rigscope recover}
 * prints for a journal it keeps. Stateless; the caller's thread.
 */
public final class JournalLeftovers {

    private JournalLeftovers() {
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
