package io.rigscope.benchmarks.analyzer;

import io.rigscope.model.wire.Ledger;
import io.rigscope.model.wire.Sample;
import io.rigscope.model.wire.SampleBatch;
import io.rigscope.model.wire.WireRecord;
import java.util.List;

/**
 * Where a second's close latency goes, second by second: from the second's end to (1) the last record it waits for
 * (every generator's ledger of it and its last sample ending in it) acknowledged by the broker to the load's
 * producer, (2) the analyzer's input handing that record on, decoded (the consumer's fetch and poll, the decode),
 * and the bench's own (3) its final decision at the analyzer's subscriber (the wait for the analysis thread and the
 * step). With the load's ledger lag (the second's end to its ledger handed to the producer) this splits the close
 * into the load's tick, the producer and broker (linger, the produce round trip), the consumer and decode, and the
 * analysis.
 *
 * <p>Each kind of time has one writer thread: acknowledgements come on the load producer's I/O thread; the input's
 * batches in the order the input emits them (serialised signals); read after the run. Times are epoch µs on the
 * bench's clock; index: second - first second of the repeat.
 */
final class SecondPath {

    private final long startSec;
    private final long[] ackedUs;
    private final long[] readUs;

    SecondPath(long startSec, int seconds) {
        this.startSec = startSec;
        this.ackedUs = new long[seconds + 8];
        this.readUs = new long[seconds + 8];
    }

    /** Producer I/O thread: the broker acknowledged a ledger of {@code sec}. */
    void ledgerAcked(long sec, long nowUs) {
        keepLatest(ackedUs, sec, nowUs);
    }

    /** Producer I/O thread: the broker acknowledged a batch whose samples end in {@code [fromSec, toSec]}. */
    void samplesAcked(long fromSec, long toSec, long nowUs) {
        for (long s = fromSec; s <= toSec; s++) {
            keepLatest(ackedUs, s, nowUs);
        }
    }

    /** The input's thread: a batch of decoded records handed on to the analysis at {@code nowUs}. */
    void read(List<WireRecord> batch, long nowUs) {
        for (WireRecord r : batch) {
            if (r instanceof Ledger l) {
                keepLatest(readUs, l.sec(), nowUs);
            } else if (r instanceof SampleBatch b && !b.samples().isEmpty()) {
                long from = Long.MAX_VALUE;
                long to = Long.MIN_VALUE;
                for (Sample sample : b.samples()) {
                    from = Math.min(from, sample.t2());
                    to = Math.max(to, sample.t2());
                }
                for (long s = Math.floorDiv(from, 1_000_000L); s <= Math.floorDiv(to, 1_000_000L); s++) {
                    keepLatest(readUs, s, nowUs);
                }
            }
        }
    }

    /**
     * The split over the measured seconds (from {@code warmupSec}) that closed: cumulative from each second's end to
     * its last awaited record acknowledged and read, and per second the read after the acknowledgement and the
     * close after the read.
     *
     * @param closeUs per second of the repeat, its end to its final decision, µs (0: not closed)
     * @param handedUs second {@code startSec + i}'s end to its ledger handed to the producer, µs
     */
    LiveAnalyzerBench.ClosePath split(long[] closeUs, int warmupSec, java.util.function.IntToLongFunction handedUs) {
        LatencyTrack published = new LatencyTrack();
        LatencyTrack publishedAfterHanded = new LatencyTrack();
        LatencyTrack read = new LatencyTrack();
        LatencyTrack readAfterPublished = new LatencyTrack();
        LatencyTrack closedAfterRead = new LatencyTrack();
        for (int i = warmupSec; i < closeUs.length; i++) {
            long p = publishedAfterEndUs(i);
            long r = readAfterEndUs(i);
            if (closeUs[i] <= 0 || p < 0 || r < 0) {
                continue;
            }
            published.record(p);
            publishedAfterHanded.record(p - handedUs.applyAsLong(i));
            read.record(r);
            readAfterPublished.record(r - p);
            closedAfterRead.record(closeUs[i] - r);
        }
        return new LiveAnalyzerBench.ClosePath(total(published), total(publishedAfterHanded), total(read), total(readAfterPublished), total(closedAfterRead));
    }

    private static LiveAnalyzerBench.Latency total(LatencyTrack t) {
        t.takeInterval();
        return t.total();
    }

    /** Second {@code startSec + i}'s last awaited record acknowledged, µs after its end; -1 when not seen. */
    long publishedAfterEndUs(int i) {
        return sinceEnd(ackedUs, i);
    }

    /** Second {@code startSec + i}'s last awaited record handed on by the input, µs after its end; -1 when not seen. */
    long readAfterEndUs(int i) {
        return sinceEnd(readUs, i);
    }

    private long sinceEnd(long[] bySec, int i) {
        if (i < 0 || i >= bySec.length || bySec[i] == 0) {
            return -1;
        }
        return bySec[i] - (startSec + i + 1) * 1_000_000L;
    }

    private void keepLatest(long[] bySec, long sec, long nowUs) {
        long i = sec - startSec;
        if (i >= 0 && i < bySec.length && nowUs > bySec[(int) i]) {
            bySec[(int) i] = nowUs;
        }
    }
}
