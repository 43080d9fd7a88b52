package io.rigscope.generator;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A loopback TCP server for misbehaving HTTP servers: every accepted connection runs a {@link Script} on a
 * thread of its own, which reads requests and writes whatever bytes it likes. It counts connections and
 * requests; closing it closes every connection and waits for the threads.
 */
final class ScriptedServer implements AutoCloseable {

    /** What the server does on one connection; the socket is closed when it returns. */
    @FunctionalInterface
    interface Script {
        void serve(Connection connection) throws IOException;
    }

    /** One accepted connection, seen by its script. */
    final class Connection {
        private final Socket socket;
        private final InputStream in;
        private final OutputStream out;

        Connection(Socket socket) throws IOException {
            this.socket = socket;
            this.in = socket.getInputStream();
            this.out = socket.getOutputStream();
        }

        /**
         * Reads one request: its head and the body its Content-Length announces. Returns the head (request line
         * and headers), or null when the client closed the connection first.
         */
        String readRequest() throws IOException {
            ByteArrayOutputStream head = new ByteArrayOutputStream(256);
            int matched = 0;
            while (matched < 4) {
                int b = in.read();
                if (b < 0) {
                    return null;
                }
                head.write(b);
                matched = b == "\r\n\r\n".charAt(matched) ? matched + 1 : (b == '\r' ? 1 : 0);
            }
            String text = head.toString(StandardCharsets.ISO_8859_1);
            for (String line : text.split("\r\n")) {
                if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                    int length = Integer.parseInt(line.substring("content-length:".length()).trim());
                    if (in.readNBytes(length).length < length) {
                        return null;
                    }
                }
            }
            requests.incrementAndGet();
            return text;
        }

        /** Writes {@code text} (ISO-8859-1) and flushes it. */
        void write(String text) throws IOException {
            out.write(text.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
        }
    }

    final AtomicLong connections = new AtomicLong();
    final AtomicLong requests = new AtomicLong();
    private final Script script;
    private final ServerSocket server;
    private final Thread acceptor;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final Set<Thread> threads = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    ScriptedServer(Script script) throws IOException {
        this.script = script;
        this.server = new ServerSocket();
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 512);
        this.acceptor = new Thread(this::accept, "scripted-server-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    private void accept() {
        while (!closed) {
            Socket s;
            try {
                s = server.accept();
            } catch (IOException e) {
                return; // closed
            }
            connections.incrementAndGet();
            open.add(s);
            Thread t = new Thread(() -> {
                try (s) {
                    s.setTcpNoDelay(true);
                    script.serve(new Connection(s));
                } catch (SocketException e) {
                    // the client or close() ended the connection
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                } finally {
                    open.remove(s);
                    threads.remove(Thread.currentThread());
                }
            }, "scripted-server-conn");
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }
    }

    int port() {
        return server.getLocalPort();
    }

    String url(String path) {
        return "http://127.0.0.1:" + port() + path;
    }

    @Override
    public void close() throws Exception {
        closed = true;
        server.close();
        acceptor.join(5_000);
        for (Socket s : open) {
            s.close();
        }
        for (Thread t : threads) {
            t.join(5_000);
        }
    }
}
