package io.rigscope.rig.selftest;

import io.rigscope.analyzer.decision.SeriesReport;
import io.rigscope.localenv.kafka.DetachedBroker;
import io.rigscope.model.wire.Ledger;
import io.rigscope.model.wire.SampleBatch;
import java.nio.file.Path;
import java.time.Duration;

/**
 * What the guarantees that run two commands on one detached broker ({@link SharedBroker}, {@link DemoPair}) share:
 * waiting for the broker the first command starts, and a series' counts read back from the topics.
 */
final class ChildCommands {

    private ChildCommands() {
    }

    /**
     * A series as the topics hold it.
     *
     * @param sent the requests its ledgers count as sent
     * @param samples the samples on {@code rig.samples}
     * @param report the report replayed from the topics
     */
    record SeriesCounts(long sent, long samples, SeriesReport report) {
    }

    static SeriesCounts counts(String bootstrap, String series) {
        SeriesRecords topics = SeriesRecords.fromTopics(bootstrap, series);
        long samples = topics.of(SampleBatch.class).stream().mapToLong(x -> x.samples().size()).sum();
        long sent = topics.of(Ledger.class).stream().mapToLong(Ledger::sent).sum();
        return new SeriesCounts(sent, samples, topics.report(series));
    }

    /** The bootstrap of the broker {@code child} ({@code who}, for the error) starts on {@code data}, within 120 s. */
    static String awaitBroker(Path data, Process child, String who) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (System.nanoTime() < deadline && child.isAlive()) {
            var running = DetachedBroker.find(data);
            if (running.isPresent()) {
                return running.get().bootstrap();
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException(who + " started no broker on " + data);
    }
}
