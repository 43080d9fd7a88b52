package io.rigscope.wire.host;

import java.net.InetSocketAddress;
import java.util.Objects;

/**
 * A {@code HOST:PORT} address, parsed in one place: a broker's address, the dashboard's listen address. An IPv6
 * host is written in brackets ({@code [::1]:9092}) and kept without them. Immutable.
 *
 * <pre>{@code
 * HostPort broker = HostPort.parse("127.0.0.1:9092");
 * HostPort listen = HostPort.parseListen(":8088", "127.0.0.1");   // port 0 would mean any free port
 * }</pre>
 *
 * @param host a host name or an address, never blank; an IPv6 address without brackets
 * @param port 0-65535; 0 only where a listener may take any free port ({@link #parseListen})
 */
public record HostPort(String host, int port) {

    public HostPort {
        Objects.requireNonNull(host, "host");
        if (host.isBlank()) {
            throw new IllegalArgumentException("the host is blank");
        }
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("port " + port + " is not 0-65535");
        }
    }

    /**
     * Parses {@code HOST:PORT} or {@code [IPV6]:PORT}, port 1-65535.
     *
     * @throws IllegalArgumentException {@code 'TEXT' is not HOST:PORT: } and what is wrong
     */
    public static HostPort parse(String text) {
        Objects.requireNonNull(text, "text");
        HostPort parsed = parse(text, null);
        if (parsed.port == 0) {
            throw wrong(text, "the port must be 1-65535");
        }
        return parsed;
    }

    /**
     * Parses a listen address: {@code HOST:PORT}, {@code [IPV6]:PORT}, {@code :PORT} or {@code PORT} (then the host
     * is {@code defaultHost}); port 0-65535, 0 for any free port.
     *
     * @throws IllegalArgumentException {@code 'TEXT' is not HOST:PORT: } and what is wrong
     */
    public static HostPort parseListen(String text, String defaultHost) {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(defaultHost, "defaultHost");
        return parse(text, defaultHost);
    }

    /** An unresolved socket address of this host and port. */
    public InetSocketAddress unresolved() {
        return InetSocketAddress.createUnresolved(host, port);
    }

    /** {@code host:port}, an IPv6 host in brackets; {@link #parse} reads it back. */
    @Override
    public String toString() {
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }

    private static HostPort parse(String text, String defaultHost) {
        String t = text.strip();
        if (t.isEmpty()) {
            throw wrong(text, "it is empty");
        }
        String host;
        String port;
        if (t.startsWith("[")) {
            int close = t.indexOf(']');
            if (close < 0) {
                throw wrong(text, "the IPv6 host has no closing ']'");
            }
            host = t.substring(1, close);
            if (close + 1 >= t.length() || t.charAt(close + 1) != ':') {
                throw wrong(text, "no ':PORT' after the bracketed host");
            }
            port = t.substring(close + 2);
        } else {
            int colon = t.lastIndexOf(':');
            if (colon < 0) {
                if (defaultHost == null) {
                    throw wrong(text, "no ':PORT'");
                }
                host = defaultHost;
                port = t;
            } else {
                host = t.substring(0, colon);
                port = t.substring(colon + 1);
                if (host.contains(":")) {
                    throw wrong(text, "an IPv6 host goes in brackets, as [" + host + "]:" + port);
                }
                if (host.isEmpty()) {
                    if (defaultHost == null) {
                        throw wrong(text, "the host is missing");
                    }
                    host = defaultHost;
                }
            }
        }
        if (host.isBlank()) {
            throw wrong(text, "the host is missing");
        }
        if (port.isEmpty()) {
            throw wrong(text, "the port is missing");
        }
        int p;
        try {
            p = Integer.parseInt(port);
        } catch (NumberFormatException e) {
            throw wrong(text, "the port '" + port + "' is not a number");
        }
        if (p < 0 || p > 65_535) {
            throw wrong(text, "the port " + p + " is not " + (defaultHost == null ? "1" : "0") + "-65535");
        }
        return new HostPort(host, p);
    }

    private static IllegalArgumentException wrong(String text, String what) {
        return new IllegalArgumentException("'" + text + "' is not HOST:PORT: " + what);
    }
}
