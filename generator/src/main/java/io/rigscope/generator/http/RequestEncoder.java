package io.rigscope.generator.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * One scenario's HTTP/1.1 request, encoded once: the request line and every fixed header are bytes built at
 * construction, so a request costs one buffer (a body) or none (no body) and no header work.
 *
 * <p>A request without a body is a duplicate of one shared, unreleasable buffer. A request with a body is one
 * buffer from the channel's allocator holding the fixed head, {@code Content-Length}, and the body.
 * Immutable and thread-safe.
 */
public final class RequestEncoder {

    private static final byte[] CONTENT_LENGTH = "Content-Length: ".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] END_OF_HEAD = "\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    private final boolean head;
    private final byte[] fixedHead;
    private final ByteBuf bodyless;

    /**
     * @param method  upper-case HTTP method
     * @param url     absolute {@code http://} URL; its raw path and query are sent as they are
     * @param headers extra headers; names and values must not hold CR, LF or (names) ':' or spaces. A
     *                {@code User-Agent} or {@code Content-Type} here replaces the default one.
     * @param contentType the default {@code Content-Type} of bodies, or null when requests carry none
     * @throws IllegalArgumentException naming the header or URL part that cannot be sent
     */
    public RequestEncoder(String method, URI url, Map<String, String> headers, String contentType) {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(url, "url");
        this.head = "HEAD".equals(method);
        String path = url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath();
        if (url.getRawQuery() != null) {
            path += "?" + url.getRawQuery();
        }
        StringBuilder h = new StringBuilder(256);
        h.append(method).append(' ').append(path).append(" HTTP/1.1\r\n");
        h.append("Host: ").append(url.getHost());
        if (url.getPort() != -1 && url.getPort() != 80) {
            h.append(':').append(url.getPort());
        }
        h.append("\r\n");
        boolean userAgent = false;
        boolean userContentType = false;
        for (Map.Entry<String, String> e : headers.entrySet()) {
            String name = e.getKey();
            String value = e.getValue();
            if (name.isEmpty() || !name.chars().allMatch(RequestEncoder::isTokenChar)) {
                throw new IllegalArgumentException("header name '" + name + "' is not an HTTP token");
            }
            if (value.indexOf('\r') >= 0 || value.indexOf('\n') >= 0) {
                throw new IllegalArgumentException("header '" + name + "' holds a CR or LF");
            }
            String lower = name.toLowerCase(Locale.ROOT);
            if (lower.equals("content-length") || lower.equals("host") || lower.equals("transfer-encoding")) {
                throw new IllegalArgumentException("header '" + name + "' is set by the generator");
            }
            userAgent |= lower.equals("user-agent");
            userContentType |= lower.equals("content-type");
            h.append(name).append(": ").append(value).append("\r\n");
        }
        if (!userAgent) {
            h.append("User-Agent: rigscope\r\n");
        }
        if (contentType != null && !userContentType) {
            h.append("Content-Type: ").append(contentType).append("\r\n");
        }
        this.fixedHead = h.toString().getBytes(StandardCharsets.ISO_8859_1);
        // RFC 9110 8.6: a POST, PUT or PATCH without content still says Content-Length: 0 (without it some servers
        // answer 411 Length Required); other methods without a body send no Content-Length.
        boolean contentMethod = method.equals("POST") || method.equals("PUT") || method.equals("PATCH");
        byte[] whole = (h + (contentMethod ? "Content-Length: 0\r\n" : "") + "\r\n").getBytes(StandardCharsets.ISO_8859_1);
        this.bodyless = Unpooled.unreleasableBuffer(Unpooled.directBuffer(whole.length).writeBytes(whole).asReadOnly());
    }

    /** True when the request is a HEAD (its response has no body). */
    public boolean head() {
        return head;
    }

    /**
     * The request with {@code body} (empty: no body, and {@code Content-Length: 0} for POST, PUT and PATCH, no
     * {@code Content-Length} otherwise). The caller owns the buffer (writing it to a channel hands it over).
     */
    public ByteBuf encode(ByteBufAllocator alloc, byte[] body) {
        if (body.length == 0) {
            return bodyless.duplicate();
        }
        int digits = digits(body.length);
        ByteBuf buf = alloc.directBuffer(fixedHead.length + CONTENT_LENGTH.length + digits + END_OF_HEAD.length
                + body.length);
        buf.writeBytes(fixedHead).writeBytes(CONTENT_LENGTH);
        writeDecimal(buf, body.length, digits);
        return buf.writeBytes(END_OF_HEAD).writeBytes(body);
    }

    private static boolean isTokenChar(int c) {
        return c > 32 && c < 127 && "()<>@,;:\\\"/[]?={}".indexOf(c) < 0;
    }

    private static int digits(int n) {
        int d = 1;
        while (n >= 10) {
            n /= 10;
            d++;
        }
        return d;
    }

    private static void writeDecimal(ByteBuf buf, int n, int digits) {
        int at = buf.writerIndex() + digits - 1;
        buf.writerIndex(buf.writerIndex() + digits);
        for (int i = 0; i < digits; i++) {
            buf.setByte(at - i, '0' + n % 10);
            n /= 10;
        }
    }
}
