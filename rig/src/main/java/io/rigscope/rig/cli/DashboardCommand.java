package io.rigscope.rig.cli;

import io.rigscope.localenv.kafka.KafkaEndpoint;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.rig.dashboard.Dashboard;
import io.rigscope.rig.options.ExitCodes;
import io.rigscope.rig.options.KafkaOptions;
import io.rigscope.wire.kafka.TopicAdmin;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code rigscope dashboard}: the dashboard on its own (every series on the broker, live or archived, and
 * {@code /metrics}) until interrupted.
 */
@Command(name = "dashboard", header = "Serve the live dashboard of every series on the broker, and /metrics.",
        mixinStandardHelpOptions = true,
        description = {"Serve the dashboard: an index of the series on the broker (live first), a page per series fed "
            + "by server-sent events from rig.verdicts and the telemetry topics (a finished series replays), "
            + "and /metrics in the Prometheus text format. Runs until interrupted (Ctrl-C)."})
final class DashboardCommand implements Callable<Integer> {

    @Mixin
    KafkaOptions kafka = new KafkaOptions();

    @Option(names = "--listen", paramLabel = "HOST:PORT", defaultValue = DashboardOptions.DEFAULT_LISTEN,
            description = "Where to listen (default ${DEFAULT-VALUE}; 127.0.0.1 unless a host is given).")
    String listen;

    @Option(names = "--token", paramLabel = "T",
            description = "Every request must carry this token (?token=T or Authorization: Bearer T).")
    String token;

    @Override
    public Integer call() {
        Dashboard.Options options = DashboardOptions.parse("--listen", listen, "--token", token);
        try (KafkaEndpoint endpoint = kafka.open()) {
            try (TopicAdmin admin = new TopicAdmin(endpoint.clients())) {
                admin.ensureTopics();
            }
            try (Dashboard d = Dashboard.start(endpoint.clients(), new WireCodec(), options)) {
                System.out.println("dashboard: " + d.url() + (token == null ? "" : "?token=...")
                        + " (series index; /metrics for Prometheus; Ctrl-C stops)");
                d.awaitClose();
            }
            return ExitCodes.OK;
        }
    }
}
