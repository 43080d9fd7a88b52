package io.rigscope.rig.cli;

import io.rigscope.rig.options.UsageException;
import io.rigscope.wire.kafka.KafkaClients;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.rig.dashboard.Dashboard;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import picocli.CommandLine.Option;

/** {@code --dashboard[=ADDR]} and {@code --dashboard-token}: shared by {@code demo}, {@code run} and {@code analyze}. */
final class DashboardOptions {

    /** Where {@code --dashboard} without a value listens. */
    static final String DEFAULT_LISTEN = "127.0.0.1:8088";

    @Option(names = "--dashboard", arity = "0..1", fallbackValue = DEFAULT_LISTEN, paramLabel = "ADDR",
            description = "Serve the live dashboard while this command runs (default " + DEFAULT_LISTEN + "; "
                + "HOST:PORT, :PORT or PORT; 127.0.0.1 unless a host is given). Its address is printed first.")
    String listen;

    @Option(names = "--dashboard-token", paramLabel = "T",
            description = "With --dashboard: every request must carry this token (?token=T or Authorization: Bearer T).")
    String token;

    /** The parsed options, or null when no dashboard was asked for; a bad value is exit 2 naming the flag. */
    Dashboard.Options options() {
        if (listen == null) {
            if (token != null) {
                throw new UsageException("--dashboard-token needs --dashboard");
            }
            return null;
        }
        return parse("--dashboard", listen, "--dashboard-token", token);
    }

    static Dashboard.Options parse(String listenFlag, String listenText, String tokenFlag, String tokenText) {
        InetSocketAddress address;
        try {
            address = Dashboard.Options.parseListen(listenText);
        } catch (IllegalArgumentException e) {
            throw new UsageException(listenFlag + ": " + e.getMessage());
        }
        if (tokenText != null && tokenText.isBlank()) {
            throw new UsageException(tokenFlag + ": the token must not be blank");
        }
        return new Dashboard.Options(address, tokenText);
    }

    /**
     * Starts the dashboard when asked for and prints the series page's address; null when not asked for.
     * The caller closes it.
     */
    Dashboard start(Dashboard.Options options, KafkaClients bootstrap, WireCodec codec, String series, PrintStream console) {
        if (options == null) {
            return null;
        }
        Dashboard d = Dashboard.start(bootstrap, codec, options);
        console.println("dashboard: " + d.url(series) + (options.token() == null ? "" : "?token=...")
                + " (index " + d.url() + "; serves while this command runs, `rigscope dashboard` afterwards)");
        return d;
    }
}
