package io.rigscope.rig.selftest;

import io.rigscope.model.topic.Topic;
import io.rigscope.model.wire.Ledger;
import io.rigscope.model.wire.SampleBatch;
import java.util.Arrays;
import java.util.Map;

/**
 * The broker-restart guarantee, read from a {@link FaultSeries}: the broker was stopped for a few seconds in the
 * middle of repeat 1 and started again on the same data directory and port. Nothing is lost: the samples on
 * {@code rig.samples} equal what the generator's ledger says it sent, every topic holds as many records of the
 * series as were handed to the publisher (the wire file), and the report from the topics is byte-identical to
 * the report of the records as produced (an unbroken broker would have carried exactly those). The live
 * analyzer, which followed the series through the outage, reached the same report.
 *
 * <p>What the gap changes: when records arrive, not which. The generator's outbox and the Kafka producer's buffer
 * hold the records of the outage (the producer retries within the delivery limit, 2 minutes by default; the outbox
 * spools to a file when the producer blocks), so the live analyzer's per-second decisions for those seconds come
 * late; the samples' own timestamps, the ledger and hence every figure of the report are the generator's and do not
 * move.
 *
 * @param downSec how long the broker was unreachable
 * @param samplesReceived samples of the series on {@code rig.samples}
 * @param ledgerSent requests the generator's ledger counts as sent
 * @param lost {@code ledgerSent - samplesReceived}
 * @param onTopics records of the series per input topic on the broker
 * @param produced the same, as handed to the publisher
 * @param spooled records the generator's outbox spooled to its file in repeat 1
 * @param reportFromTopicsIdentical the report replayed from the topics equals the one of the records as produced
 * @param liveReportIdentical the live analyzer's report equals that one too
 */
record BrokerRestart(double downSec, long samplesReceived, long ledgerSent, long lost,
                            Map<Topic, Long> onTopics, Map<Topic, Long> produced, long spooled,
                            boolean reportFromTopicsIdentical, boolean liveReportIdentical) {

    public BrokerRestart {
        onTopics = Map.copyOf(onTopics);
        produced = Map.copyOf(produced);
    }

    /** Reads the guarantee's figures from the series. */
    static BrokerRestart of(FaultSeries.Outcome o) {
        SeriesRecords topics = SeriesRecords.fromTopics(o.bootstrap(), o.series());
        SeriesRecords file = SeriesRecords.fromWireFile(o.wireFile(), o.series());
        long samples = topics.of(SampleBatch.class).stream().mapToLong(b -> b.samples().size()).sum();
        long sent = topics.of(Ledger.class).stream().mapToLong(Ledger::sent).sum();
        byte[] produced = file.reportJson(o.series());
        return new BrokerRestart((o.brokerUpUs() - o.brokerDownUs()) / 1e6, samples, sent, sent - samples,
                topics.perTopic(), file.perTopic(), o.spooled(),
                Arrays.equals(topics.reportJson(o.series()), produced), Arrays.equals(o.liveReportJson(), produced));
    }

    /** Nothing lost, nothing doubled, the report unchanged. */
    public boolean holds() {
        return lost == 0 && samplesReceived > 0 && onTopics.equals(produced) && reportFromTopicsIdentical
                && liveReportIdentical;
    }
}
