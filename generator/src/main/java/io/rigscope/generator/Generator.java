package io.rigscope.generator;

import io.rigscope.generator.plan.LoadPlan;
import io.rigscope.model.codec.WireCodec;
import java.util.Objects;
import reactor.core.publisher.Mono;

/**
 * Offers a {@link LoadPlan} to HTTP servers and publishes what happened: samples ({@code rig.samples}), the
 * per-second ledger and watermark ({@code rig.ledger}), its own health ({@code rig.health}) and start/end/config
 * markers ({@code rig.markers}) through a {@link RecordSink}, normally {@code WirePublisher::publish}.
 *
 * <pre>{@code
 * try (var publisher = new WirePublisher(bootstrap, codec, WirePublisher.Options.defaults())) {
 *     RunSummary summary = new Generator(RecordSink.of(publisher), GeneratorOptions.defaults())
 *             .run(plan)
 *             .block();
 * }
 * }</pre>
 *
 * <p>Thread-safe; the sink is not closed by the generator.
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
        Objects.requireNonNull(plan, "plan");
        return Mono.create(sink -> {
            GeneratorRun run = new GeneratorRun(plan, options, this.sink, codec);
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
    }
}
