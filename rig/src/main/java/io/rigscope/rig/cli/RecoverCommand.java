package io.rigscope.rig.cli;

import io.rigscope.generator.outbox.SampleJournal;
import io.rigscope.localenv.kafka.KafkaEndpoint;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.rig.options.ExitCodes;
import io.rigscope.rig.options.KafkaOptions;
import io.rigscope.rig.options.KafkaOptions.JournaledPublisher;
import io.rigscope.rig.options.UsageException;
import io.rigscope.wire.WirePublisher;
import io.rigscope.wire.kafka.TopicAdmin;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code rigscope recover}: publishes what the write-ahead journals ({@code generator.outbox.SampleJournal}) of
 * {@code run}, {@code demo}, {@code collect}, {@code analyze} (and {@code generate --spool DIR}) hold beyond the
 * broker's last acknowledgement, in order, each record to its own topic, and deletes each journal once the broker
 * acknowledged every record in it. A journal some record of which still fails is kept (one line naming it; exit 1).
 * A journal whose command still runs (its file locked) is left alone.
 */
@Command(name = "recover", mixinStandardHelpOptions = true,
        description = {"Publish the records commands could not publish (their write-ahead journals: by default "
            + "<data-dir>/journal, as run, demo, collect and analyze keep them), in order, and delete each journal "
            + "once the broker acknowledged all of it; exit 1 when one is kept."})
final class RecoverCommand implements Callable<Integer> {

    @Mixin
    KafkaOptions kafka = new KafkaOptions();

    @Option(names = "--journal", paramLabel = "DIR",
            description = "The journals' directory (default: <data-dir>/journal; generate's is --spool DIR).")
    Path journal;

    @Override
    public Integer call() {
        Path dir = journal != null ? journal : kafka.journalDir();
        if (!Files.isDirectory(dir)) {
            if (journal != null) {
                throw new UsageException("--journal " + dir + " is not a directory");
            }
            System.err.println("recover: no journal directory " + dir + ": nothing to publish");
            return ExitCodes.OK;
        }
        WireCodec codec = new WireCodec();
        try (KafkaEndpoint endpoint = kafka.open()) {
            try (TopicAdmin admin = new TopicAdmin(endpoint.clients())) {
                admin.ensureTopics();
            } catch (RuntimeException e) {
                System.err.println("recover: cannot reach Kafka at " + endpoint.bootstrap() + " (" + e.getMessage()
                        + "); the journals stay in " + dir);
                return ExitCodes.ERROR;
            }
            try (WirePublisher publisher = new WirePublisher(endpoint.clients(), codec,
                    WirePublisher.Options.defaults().withClientId("rigscope-recover"))) {
                List<SampleJournal.Recovered> done = SampleJournal.recover(dir, null,
                        SampleJournal.Destination.of(publisher), codec);
                boolean keptAny = false;
                for (SampleJournal.Recovered r : done) {
                    if (!r.complete()) {
                        System.err.println(JournaledPublisher.Leftovers.kept(r));
                        keptAny = true;
                        continue;
                    }
                    System.err.printf(Locale.ROOT, "recover: %s: %d record(s), %d acknowledged before, %d published "
                            + "now (%d samples)%s%n", r.file().getFileName(), r.entries(), r.acknowledged(),
                            r.published(), r.samples(), r.truncatedTail() ? "; its last entry was cut short and is "
                                    + "left out" : "");
                }
                if (done.isEmpty()) {
                    System.err.println("recover: no journal to publish in " + dir);
                }
                return keptAny ? ExitCodes.ERROR : ExitCodes.OK;
            }
        }
    }
}
