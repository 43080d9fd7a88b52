package io.rigscope.rig.series;

import io.rigscope.generator.outbox.RecordSink;
import io.rigscope.model.wire.ErrorKind;
import io.rigscope.model.wire.Sample;
import io.rigscope.model.wire.SampleBatch;
import io.rigscope.model.wire.WireRecord;
import java.io.PrintStream;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A {@link RecordSink} that hands every record on and prints one console line per distinct failure of the load, the
 * first time it shows: {@code ingest: connection refused by http://127.0.0.1:1/v1/usage-events (42 requests so
 * far)}. Distinct is the scenario and error kind, and for an HTTP error the status. Never a stack trace, never a
 * line per request: the counts are in the summary and the figures in the analyzer's report.
 *
 * <p>Called on the generator's one drain thread (as every sink), so it needs no lock.
 */
public final class FailureLines implements RecordSink {

    private final RecordSink next;
    private final Map<String, String> urls;
    private final PrintStream console;
    private final Map<String, Long> seen = new HashMap<>();

    /**
     * @param next where records go
     * @param urls scenario -> the URL its load goes to
     * @param console where the lines go
     */
    public FailureLines(RecordSink next, Map<String, String> urls, PrintStream console) {
        this.next = Objects.requireNonNull(next, "next");
        this.urls = Map.copyOf(urls);
        this.console = Objects.requireNonNull(console, "console");
    }

    @Override
    public void publish(WireRecord record) {
        note(record);
        next.publish(record);
    }

    @Override
    public void publish(WireRecord record, Acknowledgement ack) {
        note(record);
        next.publish(record, ack);
    }

    private void note(WireRecord record) {
        if (record instanceof SampleBatch batch) {
            Map<String, Sample> firstHere = new LinkedHashMap<>();
            for (Sample s : batch.samples()) {
                if (s.failed()) {
                    String key = s.scenario() + "|" + s.err().code() + (httpKind(s.err()) ? "|" + s.status() : "");
                    if (seen.merge(key, 1L, Long::sum) == 1) {
                        firstHere.put(key, s);
                    }
                }
            }
            // printed once the batch is counted: "so far" is every such failure up to the end of this batch
            firstHere.forEach((key, s) -> console.println(line(s, seen.get(key))));
        }
    }

    @Override
    public void flush() {
        next.flush();
    }

    private static boolean httpKind(ErrorKind kind) {
        return kind == ErrorKind.HTTP_4XX || kind == ErrorKind.HTTP_5XX;
    }

    /** {@code ingest: connection refused by URL (N requests so far)}, worded by the error kind. */
    String line(Sample s, long soFar) {
        String url = urls.getOrDefault(s.scenario(), "its URL");
        String what;
        ErrorKind kind = s.err();
        if (kind == ErrorKind.REFUSED) {
            what = "connection refused by " + url;
        } else if (kind == ErrorKind.TIMEOUT) {
            what = "requests to " + url + " timed out";
        } else if (kind == ErrorKind.RESET) {
            what = "connection reset by " + url;
        } else if (kind == ErrorKind.CHECK) {
            what = url + " answered " + s.status() + ", which failed the scenario's check";
        } else if (httpKind(kind)) {
            what = url + " answered " + s.status();
        } else {
            what = "requests to " + url + " failed (" + kind.code()
                    + (s.status() > 0 ? ", status " + s.status() : "") + ")";
        }
        return s.scenario() + ": " + what + " (" + soFar + (soFar == 1 ? " request" : " requests") + " so far)";
    }
}
