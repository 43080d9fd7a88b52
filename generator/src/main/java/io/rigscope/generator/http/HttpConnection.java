package io.rigscope.generator.http;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.PrematureChannelClosureException;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpHeadersFactory;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseDecoder;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.util.Objects;

/**
 * One keep-alive HTTP/1.1 connection that carries one request at a time (no pipelining). Responses are framed by
 * Netty's {@link HttpResponseDecoder}, which this handler puts in front of itself (told when a request is HEAD);
 * bodies are counted, and copied only when the owner asked to keep them ({@code keepBodyBytes} > 0, for a
 * response check): then the first {@code keepBodyBytes} of each body are copied into one array the connection
 * reuses (grown as needed, never beyond that cap), readable while {@link Listener#onResponse} runs. Every piece
 * the decoder hands over is released here. Every method runs on the channel's event loop; nothing here blocks.
 *
 * <p>A connection is owned by a {@link Listener} that decides what to send and when; the connection tells it
 * how each request ended: a complete response ({@link Listener#onResponse}), or a failure
 * ({@link Listener#onFailure}: refused, reset, closed before the response was complete, a malformed
 * response). After a failure the connection is closed. {@link Listener#onClosed} reports a close that ended
 * no request (an idle keep-alive connection the server closed, or one closed after its response).
 *
 * <p>The connection carries one opaque attachment of its owner's (set once; the owner keeps its per-request
 * bookkeeping there and reuses it), so a request needs no object of its own.
 */
public final class HttpConnection extends ChannelInboundHandlerAdapter {

    /** What the owner of a connection is told; called on the connection's event loop. */
    public interface Listener {

        /** The connection is open; a request assigned before it opened may now be written. */
        void onOpen(HttpConnection connection);

        /** The request in flight got a complete response; {@code keepAlive} false means the connection is closing. */
        void onResponse(HttpConnection connection, int status, long bodyBytes, boolean keepAlive);

        /** The request in flight (or the connect) failed; the connection is closed. */
        void onFailure(HttpConnection connection, Throwable cause);

        /** The connection closed with no request in flight. */
        void onClosed(HttpConnection connection);
    }

    /** A response ended by the peer closing the connection before it was complete. */
    public static final class PrematureCloseException extends IOException {
        PrematureCloseException(String message) {
            super(message, null);
        }

        @Override
        public synchronized Throwable fillInStackTrace() {
            return this;
        }
    }

    private final Decoder decoder;
    private final Listener listener;
    private final int keepBodyBytes;
    private final boolean readServerTiming;
    /** The response's Server-Timing header value, or null (only when {@code readServerTiming}). */
    private String serverTiming;
    /** The kept body of the response in flight (reused; null until a body is kept). */
    private byte[] kept;
    private int keptBytes;
    private boolean truncated;
    private Channel channel;
    private boolean open;
    private boolean opened;
    private boolean busy;
    private boolean ended;
    private Object attachment;
    // The response in flight.
    private boolean headRequest;
    private boolean started;
    private boolean interim;
    private int status;
    private long bodyBytes;
    private boolean keepAlive;

    /** A connection that counts response bodies and keeps none. */
    public HttpConnection(Listener listener, int maxHeadBytes) {
        this(listener, maxHeadBytes, 0);
    }

    /**
     * @param maxHeadBytes  the largest response head (status line, headers) accepted
     * @param keepBodyBytes how many bytes of each response body to keep for {@link #keptBody()}; 0: none (the
     *                      body is only counted)
     */
    public HttpConnection(Listener listener, int maxHeadBytes, int keepBodyBytes) {
        this(listener, maxHeadBytes, keepBodyBytes, false);
    }

    /**
     * @param maxHeadBytes     the largest response head (status line, headers) accepted
     * @param keepBodyBytes    how many bytes of each response body to keep for {@link #keptBody()}; 0: none
     * @param readServerTiming keep each response's {@code Server-Timing} header value for {@link #serverTiming()}
     */
    public HttpConnection(Listener listener, int maxHeadBytes, int keepBodyBytes, boolean readServerTiming) {
        if (keepBodyBytes < 0) {
            throw new IllegalArgumentException("keepBodyBytes must be >= 0, was " + keepBodyBytes);
        }
        this.listener = Objects.requireNonNull(listener, "listener");
        this.decoder = new Decoder(maxHeadBytes);
        this.keepBodyBytes = keepBodyBytes;
        this.readServerTiming = readServerTiming;
    }

    /**
     * The {@code Server-Timing} header of the response being reported (several fields joined with {@code ", "}), or
     * null when it had none or the connection does not read it. Only valid inside {@link Listener#onResponse}.
     */
    public String serverTiming() {
        return serverTiming;
    }

    /**
     * The kept body of the response being reported: its first {@link #keptBodyBytes()} bytes are the body's (an
     * empty array when none is kept). Only valid inside {@link Listener#onResponse}; the array is reused for the
     * next response.
     */
    public byte[] keptBody() {
        return kept == null ? EMPTY : kept;
    }

    /** How many bytes of {@link #keptBody()} hold the body. */
    public int keptBodyBytes() {
        return keptBytes;
    }

    /** True when the body was longer than what was kept (only when bodies are kept). */
    public boolean bodyTruncated() {
        return truncated;
    }

    private static final byte[] EMPTY = new byte[0];

    /** The owner's attachment, or null. */
    public Object attachment() {
        return attachment;
    }

    /** Sets the owner's attachment (its per-request bookkeeping for this connection). */
    public void attach(Object attachment) {
        this.attachment = attachment;
    }

    /** The channel, once registered. */
    public Channel channel() {
        return channel;
    }

    /** True while the connection is open and usable. */
    public boolean isOpen() {
        return open && !ended;
    }

    /** True once the connection was open at some point (false: the connect failed or never finished). */
    public boolean wasOpened() {
        return opened;
    }

    /** True while a request is out on this connection. */
    public boolean busy() {
        return busy;
    }

    /**
     * Writes {@code request} (the connection takes ownership) and expects its response; {@code head} tells a
     * HEAD request (no response body). The connection must be open and idle.
     */
    public void send(ByteBuf request, boolean head) {
        if (busy || !isOpen()) {
            request.release();
            throw new IllegalStateException(busy ? "a request is already in flight" : "the connection is not open");
        }
        busy = true;
        headRequest = head;
        started = false;
        interim = false;
        bodyBytes = 0;
        keptBytes = 0;
        truncated = false;
        serverTiming = null;
        channel.writeAndFlush(request, channel.voidPromise());
    }

    /** Closes the connection; a request in flight is not reported (the caller has ended it). */
    public void close() {
        busy = false;
        ended = true;
        if (channel != null) {
            channel.close();
        }
    }

    /** The connect attempt failed before the channel became active. */
    public void connectFailed(Throwable cause) {
        if (!ended) {
            ended = true;
            busy = false;
            listener.onFailure(this, cause);
        }
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        channel = ctx.channel();
        ctx.pipeline().addBefore(ctx.name(), "http-response-decoder", decoder);
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        open = true;
        opened = true;
        if (!ended) {
            listener.onOpen(this);
        }
    }

    /** From the decoder: a response head, a piece of body, the end of a response, or a decoding failure. */
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object read) {
        HttpObject msg = (HttpObject) read;
        try {
            if (ended) {
                return;
            }
            if (!busy) {
                fail(new IOException("the server sent a response with no request in flight"));
                return;
            }
            DecoderResult result = msg.decoderResult();
            if (result.isFailure()) {
                Throwable cause = result.cause();
                fail(cause instanceof PrematureChannelClosureException
                        ? new PrematureCloseException("connection closed before the response was complete")
                        : new MalformedResponseException(String.valueOf(cause.getMessage())));
                return;
            }
            if (msg instanceof HttpResponse response) {
                started = true;
                status = response.status().code();
                // 1xx interim responses are skipped, except 101, which ends the response and leaves HTTP
                interim = status >= 100 && status < 200 && status != 101;
                keepAlive = status != 101 && HttpUtil.isKeepAlive(response);
                if (readServerTiming && !interim) {
                    serverTiming = serverTimingOf(response);
                }
            }
            if (msg instanceof HttpContent content) {
                ByteBuf piece = content.content();
                bodyBytes += piece.readableBytes();
                if (keepBodyBytes > 0 && !interim) {
                    keep(piece);
                }
            }
            if (msg instanceof LastHttpContent) {
                if (interim) {
                    interim = false;
                    bodyBytes = 0;
                    keptBytes = 0;
                    truncated = false;
                    return;
                }
                busy = false;
                // a body that ran until the close ends with the channel already inactive; bytes after the
                // response belong to no request: the connection is out of sync
                boolean reuse = keepAlive && ctx.channel().isActive() && decoder.leftOverBytes() == 0;
                if (!reuse) {
                    ended = true;
                    ctx.close();
                }
                listener.onResponse(this, status, bodyBytes, reuse);
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    private static String serverTimingOf(HttpResponse response) {
        String first = response.headers().get(SERVER_TIMING);
        if (first == null) {
            return null;
        }
        java.util.List<String> all = response.headers().getAll(SERVER_TIMING);
        return all.size() == 1 ? first : String.join(", ", all);
    }

    private static final io.netty.util.AsciiString SERVER_TIMING = io.netty.util.AsciiString.cached("server-timing");

    /** Copies what fits under the cap of {@code piece} (not consumed: the caller releases it). */
    private void keep(ByteBuf piece) {
        int n = piece.readableBytes();
        int take = Math.min(n, keepBodyBytes - keptBytes);
        if (take < n) {
            truncated = true;
        }
        if (take <= 0) {
            return;
        }
        int need = keptBytes + take;
        if (kept == null || kept.length < need) {
            int grown = kept == null ? 1024 : kept.length * 2;
            kept = java.util.Arrays.copyOf(kept == null ? EMPTY : kept, Math.min(keepBodyBytes, Math.max(grown, need)));
        }
        piece.getBytes(piece.readerIndex(), kept, keptBytes, take);
        keptBytes = need;
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        open = false;
        if (ended) {
            return;
        }
        ended = true;
        if (!busy) {
            listener.onClosed(this);
            return;
        }
        busy = false;
        // A response the close completed (a body that ran until the close) or truncated was reported by the
        // decoder just before this; what is left is a close before the response began.
        listener.onFailure(this, new PrematureCloseException(started
                ? "connection closed before the response was complete"
                : "connection closed with no response"));
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        fail(cause);
    }

    private void fail(Throwable cause) {
        if (ended) {
            return;
        }
        ended = true;
        boolean wasBusy = busy;
        busy = false;
        if (channel != null) {
            channel.close();
        }
        if (wasBusy) {
            listener.onFailure(this, cause);
        } else {
            listener.onClosed(this);
        }
    }

    /**
     * Netty's defaults (header names and values validated as before) with headers and trailers taken from one
     * object each per connection, cleared for each message ({@link ReusedHeaders}).
     */
    private static HttpDecoderConfig decoderConfig(int maxHeadBytes) {
        HttpDecoderConfig config = new HttpDecoderConfig().setMaxInitialLineLength(maxHeadBytes).setMaxHeaderSize(maxHeadBytes);
        return config.setHeadersFactory(new ReusedHeaders(config.getHeadersFactory()))
                .setTrailersFactory(new ReusedHeaders(config.getTrailersFactory()));
    }

    /**
     * Gives the decoder the same headers object, cleared, for every message of one connection, instead of a new
     * one (a 16-bucket table and its entries) for every response and another for every response's trailers: the
     * largest part of what the client allocated per request (JFR, 2026-12-02). Safe because a connection carries
     * one request at a time and {@link #channelRead} is done with a message's headers before the decoder starts
     * the next message (Netty's decoder hands each message on before it decodes further); nothing keeps them.
     */
    private static final class ReusedHeaders implements HttpHeadersFactory {
        private final HttpHeadersFactory factory;
        private final HttpHeaders headers;

        ReusedHeaders(HttpHeadersFactory factory) {
            this.factory = factory;
            this.headers = factory.newHeaders();
        }

        @Override
        public HttpHeaders newHeaders() {
            return headers.clear();
        }

        @Override
        public HttpHeaders newEmptyHeaders() {
            return factory.newEmptyHeaders();
        }
    }

    /**
     * Netty's response decoder for this connection: knows when the request was HEAD (no body whatever the headers
     * say), and closes the connection on bytes that arrive with no request out instead of decoding them.
     */
    private final class Decoder extends HttpResponseDecoder {

        Decoder(int maxHeadBytes) {
            super(decoderConfig(maxHeadBytes));
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
            if (msg instanceof ByteBuf buf && (ended || !busy)) {
                int bytes = buf.readableBytes();
                buf.release();
                if (!ended) {
                    fail(new IOException("the server sent " + bytes + " byte(s) with no request in flight"));
                }
                return;
            }
            super.channelRead(ctx, msg);
        }

        @Override
        protected boolean isContentAlwaysEmpty(HttpMessage msg) {
            return headRequest || super.isContentAlwaysEmpty(msg);
        }

        int leftOverBytes() {
            return actualReadableBytes();
        }
    }
}
