package io.rigscope.generator;

import io.rigscope.generator.outbox.RecordSink;
import io.rigscope.generator.plan.LoadPlan;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.model.wire.VerdictFacts;
import java.util.Objects;
import reactor.core.publisher.Mono;

/**
 * Offers a {@link LoadPlan} to HTTP servers and publishes what happened: samples ({@code rig.samples}), the
 * per-second ledger and watermark ({@code rig.ledger}), its own health ({@code rig.health}) and start/end/config
 * markers ({@code rig.markers}) through a {@link RecordSink}, normally {@code WirePublisher::publish}.
 *
 * <pre>{@code
 * try (var publisher = new WirePublisher(bootstrap, codec, WirePublisher.Options.defaults());
 *      var loops = ClientLoops.open(2)) {
 *     RunSummary summary = new Generator(RecordSink.of(publisher), GeneratorOptions.defaults().withClientLoops(loops))
 *             .run(plan)
 *             .block();
 * }
 * }</pre>
 *
 * <p>Thread-safe; the sink is not closed by the generator. Its HTTP client runs on the options' client loops
 * ({@link GeneratorOptions#withClientLoops}, owned and closed by the caller), or, without them, on loops each run
 * opens and closes for itself.
 */
public final class Generator {

    private final RecordSink sink;
    private final GeneratorOptions options;
    private final WireCodec codec;

    public Generator(RecordSink sink, GeneratorOptions options) {
        this.sink = Objects.requireNonNull(sink, "sink");
        this.options = Objects.requireNonNull(options, "options");
        this.codec = new WireCodec();
    }

    /**
     * A cold Mono: each subscription runs the plan once on threads of its own ({@code rig-gen-*}) and emits the
     * summary after every request has ended and every record has been handed to the sink. Cancelling stops the
     * schedule early; requests in flight still end and are published.
     */
    public Mono<RunSummary> run(LoadPlan plan) {
        return run(plan, Mono.never());
    }

    /**
     * As {@link #run(LoadPlan)}, and when {@code stop} emits before the schedule's end, the schedule ends there:
     * requests in flight still end and are published, the summary is emitted as usual and the end marker
     * (REPEAT_END, ...) carries what {@code stop} emitted under {@code stopped} (docs/wire-format.md), so whoever
     * reads the series knows why it is short. A stop after the schedule's end changes nothing.
     *
     * <p>A {@code stop} that fails fails the returned Mono with its error and stops the schedule, as a cancel does
     * (requests in flight still end and are published, on the run's own thread).
     *
     * @param stop emits when and why the run must stop ({@link Stop#because}: the analyzer's ABORT; {@link Stop#SIGNAL}
     *             without a reason, as {@code generate} does on SIGINT/SIGTERM: the end marker then has no
     *             {@code stopped}), or never
     */
    public Mono<RunSummary> run(LoadPlan plan, Mono<Stop> stop) {
        Objects.requireNonNull(plan, "plan");
        Objects.requireNonNull(stop, "stop");
        return Mono.defer(() -> {
            GeneratorRun run = new GeneratorRun(plan, options, this.sink, codec);
            Mono<RunSummary> execution = Mono.create(sink -> {
                Thread thread = new Thread(() -> {
                    try {
                        sink.success(run.execute());
                    } catch (Throwable e) {
                        sink.error(e);
                    }
                }, "rig-gen-run");
                sink.onCancel(run::stop);
                thread.start();
            });
            // Never emits: passes a stop on to the run, and fails with the stop's failure (the run is then cancelled,
            // so it stops starting requests). Cancelled once the execution has signalled.
            Mono<RunSummary> stopping = stop.doOnNext(run::stop).then(Mono.never());
            return Mono.firstWithSignal(execution, stopping);
        });
    }

    /**
     * A request to stop a run early, and why.
     *
     * @param reason the facts of the analyzer's ABORT verdict that asked for it (the end marker's {@code stopped}),
     *     or null for a stop without one (a signal)
     */
    public record Stop(VerdictFacts.Abort reason) {

        /** A stop without a reason. */
        public static final Stop SIGNAL = new Stop(null);

        /** A stop because of an ABORT verdict. */
        public static Stop because(VerdictFacts.Abort reason) {
            return new Stop(java.util.Objects.requireNonNull(reason, "reason"));
        }
    }
}
