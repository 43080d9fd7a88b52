package io.rigscope.localenv.net;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/** Ports on the loopback interface for the servers rigscope starts (broker, private PostgreSQL). */
public final class LoopbackPorts {

    private LoopbackPorts() {
    }

    /** A port the system just handed out on 127.0.0.1 (free now; another process may take it later). */
    public static int free() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 0, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** True when {@code port} can be bound on 127.0.0.1 right now. */
    public static boolean isFree(int port) {
        try (ServerSocket s = new ServerSocket()) {
            // as the broker binds: without SO_REUSEADDR, so a port with connections still in TIME_WAIT (a broker
            // that just stopped) counts as busy; with it, this said free and the broker's own bind then failed
            s.setReuseAddress(false);
            s.bind(new InetSocketAddress("127.0.0.1", port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
