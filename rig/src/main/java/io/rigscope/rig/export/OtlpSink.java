package io.rigscope.rig.export;

import io.opentelemetry.exporter.otlp.http.logs.OtlpHttpLogRecordExporter;
import io.opentelemetry.exporter.otlp.http.logs.OtlpHttpLogRecordExporterBuilder;
import io.opentelemetry.exporter.otlp.http.metrics.OtlpHttpMetricExporter;
import io.opentelemetry.exporter.otlp.http.metrics.OtlpHttpMetricExporterBuilder;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.common.export.RetryPolicy;
import io.opentelemetry.sdk.logs.data.LogRecordData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.rigscope.analyzer.decision.Decision;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Sends decisions over OTLP/HTTP through the OpenTelemetry Java SDK's exporters ({@code --otlp}): the same figures
 * as {@link RemoteWriteSink} as metrics (latency as exponential histograms of scale {@value NativeHistogram#SCHEMA},
 * the same buckets as the native histograms), each final episode as a log record.
 *
 * <p>Like {@link RemoteWriteSink}, the run never waits: {@link #accept} converts and enqueues into a bounded buffer,
 * one daemon thread exports (the SDK's own retry policy applies), {@link #close} waits at most 10 s and says once
 * what was sent and what was not. The SDK's own log lines are silenced: the one line is rigscope's.
 */
final class OtlpSink implements Consumer<Decision>, AutoCloseable {

    private static final int BUFFER = 50_000;
    private static final int BATCH = 1_000;

    /** Held so the level set on it stays (java.util.logging keeps loggers weakly). */
    private final Logger sdkLogger = Logger.getLogger("io.opentelemetry");
    private final ExportTargets.Otlp target;
    private final PrintStream console;
    private volatile OtlpHttpMetricExporter metrics;
    private volatile OtlpHttpLogRecordExporter logs;
    private final DecisionSamples samples = new DecisionSamples();
    private final BlockingQueue<Object> queue = new ArrayBlockingQueue<>(BUFFER);
    private final AtomicLong accepted = new AtomicLong();
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong notSent = new AtomicLong();
    private final Thread sender;
    private volatile boolean closing;
    private volatile boolean down;
    private boolean closed;

    public OtlpSink(ExportTargets.Otlp target, PrintStream console) {
        this.target = target;
        this.console = console;
        sdkLogger.setLevel(Level.OFF);
        this.sender = new Thread(this::sendLoop, "otlp");
        sender.setDaemon(true);
        sender.start();
    }

    /** Converts one decision and enqueues it; never blocks, never throws. */
    @Override
    public void accept(Decision decision) {
        List<Object> out = new ArrayList<>();
        try {
            for (TimeSeriesSample s : samples.of(decision)) {
                out.add(OtlpData.metric(s));
            }
            if (decision instanceof Decision.EpisodeFound e && !e.provisional()) {
                out.add(OtlpData.episode(e));
            }
        } catch (RuntimeException e) {
            return;
        }
        for (Object o : out) {
            accepted.incrementAndGet();
            if (!queue.offer(o)) {
                notSent.incrementAndGet();
            }
        }
    }

    /** Metric points and log records the receiver took. */
    public long sent() {
        return sent.get();
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        closing = true;
        try {
            if (down) {
                sender.interrupt(); // a receiver that is down is not waited for
            }
            sender.join(10_000);
            if (sender.isAlive()) {
                sender.interrupt();
                sender.join(2_000);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        notSent.addAndGet(queue.size());
        queue.clear();
        if (metrics != null) {
            metrics.shutdown();
        }
        if (logs != null) {
            logs.shutdown();
        }
        String line = String.format(Locale.ROOT, "otlp: %,d metric point(s) and log record(s) sent to %s", sent.get(),
                target.shown());
        console.println(notSent.get() == 0 ? line
                : line + String.format(Locale.ROOT, "; %,d of %,d NOT sent", notSent.get(), accepted.get()));
    }

    /** Built on the sender's thread: the SDK's JDK sender loads the TLS trust store first, seconds on a busy host. */
    private void openExporters() {
        RetryPolicy retry = RetryPolicy.builder().setMaxAttempts(3).setInitialBackoff(Duration.ofMillis(250))
                .setMaxBackoff(Duration.ofSeconds(2)).build();
        OtlpHttpMetricExporterBuilder m = OtlpHttpMetricExporter.builder().setEndpoint(target.endpoint("metrics"))
                .setTimeout(Duration.ofSeconds(10)).setConnectTimeout(Duration.ofSeconds(2)).setRetryPolicy(retry);
        OtlpHttpLogRecordExporterBuilder l = OtlpHttpLogRecordExporter.builder().setEndpoint(target.endpoint("logs"))
                .setTimeout(Duration.ofSeconds(10)).setConnectTimeout(Duration.ofSeconds(2)).setRetryPolicy(retry);
        target.headers().forEach((k, v) -> {
            m.addHeader(k, v);
            l.addHeader(k, v);
        });
        metrics = m.build();
        logs = l.build();
    }

    private void sendLoop() {
        List<Object> batch = new ArrayList<>();
        openExporters();
        try {
            while (true) {
                Object first = queue.poll(100, TimeUnit.MILLISECONDS);
                if (first == null) {
                    if (closing) {
                        return;
                    }
                    continue;
                }
                batch.add(first);
                queue.drainTo(batch, BATCH - 1);
                if (closing && down) {
                    notSent.addAndGet(batch.size());
                    batch.clear();
                    continue;
                }
                List<MetricData> m = new ArrayList<>();
                List<LogRecordData> l = new ArrayList<>();
                for (Object o : batch) {
                    if (o instanceof MetricData md) {
                        m.add(md);
                    } else {
                        l.add((LogRecordData) o);
                    }
                }
                down = !export(m.isEmpty() ? null : metrics.export(m), m.size())
                        | !export(l.isEmpty() ? null : logs.export(l), l.size());
                batch.clear();
            }
        } catch (InterruptedException e) {
            notSent.addAndGet(batch.size());
            Thread.currentThread().interrupt();
        }
    }

    private boolean export(CompletableResultCode result, int items) {
        if (result == null) {
            return true;
        }
        result.join(30, TimeUnit.SECONDS);
        if (result.isSuccess()) {
            sent.addAndGet(items);
            return true;
        }
        notSent.addAndGet(items);
        return false;
    }
}
