package io.rigscope.rig.export;

import io.rigscope.analyzer.decision.Decision;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Where a command pushes its decisions: a Prometheus remote-write receiver ({@code --prometheus-rw}), an OTLP/HTTP
 * endpoint ({@code --otlp}), both, or neither (each null when not asked for).
 */
public record ExportTargets(RemoteWriteTarget prometheusRw, OtlpTarget otlp) {

    /** True when there is somewhere to push. */
    public boolean any() {
        return prometheusRw != null || otlp != null;
    }

    /** Starts the sinks (their threads); null when there is nowhere to push. The caller closes it. */
    public Sinks open(PrintStream console) {
        if (!any()) {
            return null;
        }
        List<Consumer<Decision>> sinks = new ArrayList<>();
        List<AutoCloseable> closers = new ArrayList<>();
        if (prometheusRw != null) {
            RemoteWriteSink rw = new RemoteWriteSink(prometheusRw, console);
            sinks.add(rw);
            closers.add(rw);
        }
        if (otlp != null) {
            OtlpSink o = new OtlpSink(otlp, console);
            sinks.add(o);
            closers.add(o);
        }
        return new Sinks(sinks, closers);
    }

    /** The open sinks: each decision to every one; {@link #close} closes each (each says its one line). */
    public static final class Sinks implements Consumer<Decision>, AutoCloseable {
        private final List<Consumer<Decision>> sinks;
        private final List<AutoCloseable> closers;
        private boolean closed;

        private Sinks(List<Consumer<Decision>> sinks, List<AutoCloseable> closers) {
            this.sinks = List.copyOf(sinks);
            this.closers = List.copyOf(closers);
        }

        @Override
        public void accept(Decision decision) {
            sinks.forEach(s -> s.accept(decision));
        }

        @Override
        public synchronized void close() {
            if (closed) {
                return;
            }
            closed = true;
            for (AutoCloseable c : closers) {
                try {
                    c.close();
                } catch (Exception e) {
                    // each sink's close says what it sent; nothing of it may fail the run
                }
            }
        }
    }
}
