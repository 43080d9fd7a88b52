package io.rigscope.rig.cli;

import io.rigscope.generator.RecordSink;
import io.rigscope.generator.outbox.SampleJournal;
import io.rigscope.localenv.kafka.KafkaEndpoint;
import io.rigscope.model.codec.WireCodec;
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
 * {@code rigscope recover}: publishes what the write-ahead sample journals of {@code run}, {@code demo} (and
 * {@code generate --spool DIR}) hold beyond the broker's last acknowledgement, in order, then deletes them. A
 * journal whose command still runs (its file locked) is left alone.
 */
@Command(name = "recover", mixinStandardHelpOptions = true,
        description = {"Publish the samples a command could not publish (its write-ahead journal: by default "
            + "<data-dir>/journal, as run and demo keep it), in order, and delete the journals."})
public final class RecoverCommand implements Callable<Integer> {

    @Mixin
    KafkaOptions kafka = new KafkaOptions();

    @Option(names = "--journal", paramLabel = "DIR",
            description = "The journals' directory (default: <data-dir>/journal; generate's is --spool DIR).")
    Path journal;

    /**
     * What {@code run} and {@code demo} do first: publish the journals an earlier command on the same data directory
     * left in {@code dir} (a broker that did not come back in time, a kill), with a publisher of their own (not the
     * run's, so nothing of another series reaches the run's {@code --out} file); one line per journal. Nothing when
     * the directory has none.
     */
    static void publishLeftovers(KafkaEndpoint endpoint, Path dir, java.io.PrintStream console) {
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
            List<SampleJournal.Recovered> done = SampleJournal.recover(dir, null, RecordSink.of(publisher), codec);
            publisher.flush();
            for (SampleJournal.Recovered r : done) {
                console.printf(Locale.ROOT, "recover: published what an earlier command left in %s: %d sample(s) "
                        + "in %d batch(es)%s%n", r.file(), r.samples(), r.published(),
                        publisher.failed() > 0 ? " (" + publisher.failed() + " failed: " + publisher.lastError() + ")"
                                : "");
            }
        }
    }

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
        try (KafkaEndpoint endpoint = kafka.open(); TopicAdmin admin = new TopicAdmin(endpoint.clients())) {
            admin.ensureTopics();
            try (WirePublisher publisher = new WirePublisher(endpoint.clients(), codec,
                    WirePublisher.Options.defaults().withClientId("rigscope-recover"))) {
                List<SampleJournal.Recovered> done = SampleJournal.recover(dir, null, RecordSink.of(publisher), codec);
                publisher.flush();
                for (SampleJournal.Recovered r : done) {
                    System.err.printf(Locale.ROOT, "recover: %s: %d batch(es), %d acknowledged before, %d published "
                            + "now (%d samples)%s%n", r.file().getFileName(), r.entries(), r.acknowledged(),
                            r.published(), r.samples(), r.truncatedTail() ? "; its last entry was cut short and is "
                                    + "left out" : "");
                }
                if (done.isEmpty()) {
                    System.err.println("recover: no journal to publish in " + dir);
                }
                if (publisher.failed() > 0) {
                    System.err.println("recover: " + publisher.failed() + " record(s) failed to publish ("
                            + publisher.lastError() + "); the journals stay in " + dir);
                    return ExitCodes.ERROR;
                }
                return ExitCodes.OK;
            }
        }
    }
}
