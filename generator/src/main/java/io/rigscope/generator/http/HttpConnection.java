package io.rigscope.generator.http;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.io.IOException;
import java.util.Objects;

/**
 * One keep-alive HTTP/1.1 connection that carries one request at a time (no pipelining), as the channel's
 * only handler. Every method runs on the channel's event loop; nothing here blocks or allocates per response.
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

    private final ResponseParser parser;
    private final Listener listener;
    private Channel channel;
    private boolean open;
    private boolean opened;
    private boolean busy;
    private boolean ended;
    private Object attachment;

    /** @param maxHeadBytes the largest response head accepted (see {@link ResponseParser}) */
    public HttpConnection(Listener listener, int maxHeadBytes) {
        this.listener = Objects.requireNonNull(listener, "listener");
        this.parser = new ResponseParser(maxHeadBytes);
    }

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
        parser.begin(head);
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
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        open = true;
        opened = true;
        if (!ended) {
            listener.onOpen(this);
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf buf = (ByteBuf) msg;
        try {
            if (ended) {
                return;
            }
            if (!busy) {
                fail(new IOException("the server sent " + buf.readableBytes() + " byte(s) with no request in flight"));
                return;
            }
            int status = parser.feed(buf);
            if (status != ResponseParser.NEED_MORE) {
                busy = false;
                boolean keepAlive = parser.keepAlive() && !buf.isReadable();
                if (!keepAlive) {
                    ended = true;
                    ctx.close();
                }
                listener.onResponse(this, status, parser.bodyBytes(), keepAlive);
            }
        } catch (MalformedResponseException e) {
            fail(e);
        } finally {
            buf.release();
        }
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
        int status = parser.closed();
        if (status != ResponseParser.NEED_MORE) {
            listener.onResponse(this, status, parser.bodyBytes(), false);
        } else {
            listener.onFailure(this, new PrematureCloseException(parser.started()
                    ? "connection closed before the response was complete"
                    : "connection closed with no response"));
        }
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
}
