package io.rigscope.rig.export;

import io.rigscope.analyzer.decision.Decision;
import java.io.IOException;
import java.io.PrintStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.xerial.snappy.Snappy;

/**
 * Pushes decisions to a Prometheus remote-write receiver as they are decided: {@code decisions.doOnNext(sink)}.
 * Remote write 1.0: a protobuf {@code WriteRequest}, snappy-compressed (block format), POSTed with
 * {@code Content-Encoding: snappy} and {@code X-Prometheus-Remote-Write-Version: 0.1.0}.
 *
 * <p>The run never waits for the receiver: {@link #accept} converts and enqueues (a full buffer drops the sample
 * and counts it), one daemon thread sends batches in order, retrying a refused connection, a 5xx or a 429 with
 * backoff (250 ms doubling to 5 s, a batch given up after 30 s); a 4xx other than 429 drops the batch (the receiver
 * will not take it). {@link #close} waits at most {@link ExportTargets.RemoteWrite#flushTimeout} for the rest, and not at
 * all while the receiver is down, then says in one line what was sent and what was not. A sample whose time is not
 * after its series' previous one is never sent (Prometheus would refuse the whole batch for it).
 *
 * <p>Thread safety: {@link #accept} from one thread (the decision stream's); {@link #close} from any.
 */
final class RemoteWriteSink implements Consumer<Decision>, AutoCloseable {

    private static final int MAX_BATCH_SAMPLES = 2_000;
    private static final Duration FIRST_BACKOFF = Duration.ofMillis(250);
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(5);
    private static final Duration GIVE_UP_AFTER = Duration.ofSeconds(30);

    private final ExportTargets.RemoteWrite target;
    private final PrintStream console;
    private final HttpClient http;
    private final BlockingQueue<TimeSeriesSample> queue;
    private final DecisionSamples samples = new DecisionSamples();
    private final Map<String, Long> lastMsBySeries = new HashMap<>();
    private final Thread sender;
    private final AtomicLong accepted = new AtomicLong();
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong droppedFull = new AtomicLong();
    private final AtomicLong notSent = new AtomicLong();
    private final AtomicLong requests = new AtomicLong();
    private volatile boolean closing;
    private volatile boolean receiverDown;
    private volatile String lastError;
    private boolean closed;

    /**
     * A sink pushing to {@code target}, its one line at the end to {@code console}. Starts its sender thread.
     */
    public RemoteWriteSink(ExportTargets.RemoteWrite target, PrintStream console) {
        this.target = target;
        this.console = console;
        this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        this.queue = new ArrayBlockingQueue<>(target.bufferSamples());
        this.sender = new Thread(this::sendLoop, "prometheus-rw");
        sender.setDaemon(true);
        sender.start();
    }

    /** Converts one decision and enqueues its samples; never blocks, never throws. */
    @Override
    public void accept(Decision decision) {
        List<TimeSeriesSample> out;
        try {
            out = samples.of(decision);
        } catch (RuntimeException e) {
            lastError = "a decision could not be converted: " + e;
            return;
        }
        for (TimeSeriesSample s : out) {
            Long last = lastMsBySeries.get(s.seriesKey());
            if (last != null && s.timestampMs() <= last) {
                continue;
            }
            lastMsBySeries.put(s.seriesKey(), s.timestampMs());
            accepted.incrementAndGet();
            if (!queue.offer(s)) {
                droppedFull.incrementAndGet();
            }
        }
    }

    /** Samples taken so far (the sum of sent, dropped and still buffered). */
    public long accepted() {
        return accepted.get();
    }

    /** Samples the receiver acknowledged. */
    public long sent() {
        return sent.get();
    }

    /** Samples that were not and will not be sent: a full buffer, a batch given up or refused, the end of the run. */
    public long notSent() {
        return droppedFull.get() + notSent.get();
    }

    /**
     * Sends what the buffer holds (waiting at most the target's flush timeout, and not at all while the receiver
     * is down), stops the sender and prints one line: samples sent, and how many were not sent and why.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        closing = true;
        try {
            if (receiverDown) {
                sender.interrupt(); // a receiver that is down is not waited for: not even its backoff
            }
            sender.join(target.flushTimeout().toMillis());
            if (sender.isAlive()) {
                sender.interrupt();
                sender.join(2_000);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        notSent.addAndGet(queue.size());
        queue.clear();
        console.println(summary());
    }

    /** The one line said at the end. */
    String summary() {
        long lost = notSent();
        String base = String.format(Locale.ROOT, "prometheus-rw: %,d sample(s) sent to %s in %,d request(s)",
                sent.get(), target.shown(), requests.get());
        if (lost == 0) {
            return base;
        }
        return base + String.format(Locale.ROOT, "; %,d of %,d NOT sent (%s%s)", lost, accepted.get(),
                droppedFull.get() > 0 ? String.format(Locale.ROOT, "%,d over the %,d-sample buffer; ",
                        droppedFull.get(), target.bufferSamples()) : "",
                lastError == null ? "the run ended first" : "last error: " + lastError);
    }

    private void sendLoop() {
        List<TimeSeriesSample> batch = new ArrayList<>();
        try {
            while (true) {
                TimeSeriesSample first = queue.poll(100, TimeUnit.MILLISECONDS);
                if (first == null) {
                    if (closing) {
                        return;
                    }
                    continue;
                }
                batch.add(first);
                queue.drainTo(batch, MAX_BATCH_SAMPLES - 1);
                if (closing && receiverDown) {
                    notSent.addAndGet(batch.size());
                    batch.clear();
                    return;
                }
                send(batch);
                batch.clear();
            }
        } catch (InterruptedException e) {
            notSent.addAndGet(batch.size());
            Thread.currentThread().interrupt();
        }
    }

    private void send(List<TimeSeriesSample> batch) throws InterruptedException {
        byte[] body;
        try {
            body = Snappy.compress(encode(batch));
        } catch (IOException | RuntimeException e) {
            lastError = "snappy: " + e.getMessage();
            notSent.addAndGet(batch.size());
            return;
        }
        HttpRequest.Builder request = HttpRequest.newBuilder(target.url())
                .timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/x-protobuf")
                .header("Content-Encoding", "snappy")
                .header("X-Prometheus-Remote-Write-Version", "0.1.0")
                .header("User-Agent", "rigscope")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        target.headers().forEach(request::header);
        if (target.authorization() != null) {
            request.header("Authorization", target.authorization());
        }
        long started = System.nanoTime();
        Duration backoff = FIRST_BACKOFF;
        while (true) {
            requests.incrementAndGet();
            boolean retry;
            try {
                HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
                int status = response.statusCode();
                if (status / 100 == 2) {
                    sent.addAndGet(batch.size());
                    receiverDown = false;
                    return;
                }
                lastError = "HTTP " + status + (response.body().isBlank() ? ""
                        : " " + response.body().strip().lines().findFirst().orElse(""));
                retry = status == 429 || status / 100 == 5;
            } catch (java.net.ConnectException e) {
                lastError = "cannot connect" + (e.getMessage() == null ? "" : ": " + e.getMessage());
                retry = true;
            } catch (IOException e) {
                lastError = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
                retry = true;
            }
            receiverDown = retry;
            boolean late = System.nanoTime() - started + backoff.toNanos() > GIVE_UP_AFTER.toNanos();
            if (!retry || closing || late) {
                notSent.addAndGet(batch.size());
                return;
            }
            Thread.sleep(backoff.toMillis());
            backoff = backoff.multipliedBy(2).compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : backoff.multipliedBy(2);
        }
    }

    /** The remote-write {@code WriteRequest}: field 1, one {@code TimeSeries} per sample. */
    static byte[] encode(List<TimeSeriesSample> batch) {
        ProtoWriter request = new ProtoWriter();
        for (TimeSeriesSample s : batch) {
            request.message(1, s.encode());
        }
        return request.toByteArray();
    }
}
