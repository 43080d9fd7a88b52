package io.rigscope.generator.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The exact bytes {@link RequestEncoder} puts on the wire, and the headers it refuses to send. */
class RequestEncoderTest {

    private static final byte[] NO_BODY = new byte[0];

    private static String text(ByteBuf buf) {
        try {
            return buf.toString(StandardCharsets.ISO_8859_1);
        } finally {
            buf.release();
        }
    }

    private static String encodeGet(String url, Map<String, String> headers) {
        return text(new RequestEncoder("GET", URI.create(url), headers, null)
                .encode(UnpooledByteBufAllocator.DEFAULT, NO_BODY));
    }

    @Test
    void aGetCarriesTheRawPathAndQueryTheHostWithItsPortAndTheDefaultUserAgent() {
        assertThat(encodeGet("http://127.0.0.1:8080/v1/a%20b/c?x=1&y=%2F&z", Map.of()))
                .isEqualTo("GET /v1/a%20b/c?x=1&y=%2F&z HTTP/1.1\r\n"
                        + "Host: 127.0.0.1:8080\r\n"
                        + "User-Agent: rigscope\r\n"
                        + "\r\n");
    }

    @Test
    void theHostLeavesOutPort80AndAnEmptyPathIsTheRoot() {
        assertThat(encodeGet("http://example.com:80", Map.of()))
                .startsWith("GET / HTTP/1.1\r\nHost: example.com\r\n");
        assertThat(encodeGet("http://example.com", Map.of()))
                .startsWith("GET / HTTP/1.1\r\nHost: example.com\r\n");
        assertThat(encodeGet("http://example.com?q=1", Map.of()))
                .startsWith("GET /?q=1 HTTP/1.1\r\nHost: example.com\r\n");
        assertThat(encodeGet("http://[::1]:9000/p", Map.of()))
                .startsWith("GET /p HTTP/1.1\r\nHost: [::1]:9000\r\n");
    }

    @Test
    void extraHeadersGoOutInTheirOrderAndAUserAgentOfTheUserReplacesTheDefault() {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Authorization", "Bearer k-1");
        headers.put("user-agent", "k6/0.50");
        headers.put("X-Trace", "a b\tc");
        assertThat(encodeGet("http://h:81/p", headers))
                .isEqualTo("GET /p HTTP/1.1\r\n"
                        + "Host: h:81\r\n"
                        + "Authorization: Bearer k-1\r\n"
                        + "user-agent: k6/0.50\r\n"
                        + "X-Trace: a b\tc\r\n"
                        + "\r\n");
    }

    @Test
    void aPostCarriesItsContentTypeAnExactContentLengthAndTheBodyAfterTheHead() {
        RequestEncoder post = new RequestEncoder("POST", URI.create("http://127.0.0.1:9/ingest"),
                Map.of("Authorization", "Bearer k"), "application/json");
        String head = "POST /ingest HTTP/1.1\r\n"
                + "Host: 127.0.0.1:9\r\n"
                + "Authorization: Bearer k\r\n"
                + "User-Agent: rigscope\r\n"
                + "Content-Type: application/json\r\n";
        for (int length : new int[] {1, 9, 10, 11, 99, 100, 101, 999, 1000, 9_999, 10_000, 99_999, 100_000,
                999_999, 1_000_000}) {
            byte[] body = new byte[length];
            Arrays.fill(body, (byte) 'x');
            body[0] = '{';
            body[length - 1] = '}';
            ByteBuf buf = post.encode(PooledByteBufAllocator.DEFAULT, body);
            try {
                assertThat(buf.writableBytes()).as("buffer sized exactly for %d body bytes", length).isZero();
                String expected = head + "Content-Length: " + length + "\r\n\r\n" + new String(body, StandardCharsets.ISO_8859_1);
                assertThat(buf.toString(StandardCharsets.ISO_8859_1)).as("%d body bytes", length).isEqualTo(expected);
            } finally {
                assertThat(buf.release()).isTrue();
            }
        }
    }

    @Test
    void aContentTypeOfTheUserReplacesTheDefaultSoTheRequestCarriesOnlyOne() {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Authorization", "Bearer k");
        headers.put("content-type", "application/json; charset=utf-8");
        RequestEncoder post = new RequestEncoder("POST", URI.create("http://h/ingest"), headers, "application/json");
        assertThat(text(post.encode(UnpooledByteBufAllocator.DEFAULT, "{}".getBytes(StandardCharsets.US_ASCII))))
                .isEqualTo("POST /ingest HTTP/1.1\r\n"
                        + "Host: h\r\n"
                        + "Authorization: Bearer k\r\n"
                        + "content-type: application/json; charset=utf-8\r\n"
                        + "User-Agent: rigscope\r\n"
                        + "Content-Length: 2\r\n"
                        + "\r\n"
                        + "{}");
    }

    @Test
    void aPostPutOrPatchWithAnEmptyBodySaysContentLengthZero() {
        for (String method : new String[] {"POST", "PUT", "PATCH"}) {
            RequestEncoder empty = new RequestEncoder(method, URI.create("http://h/ingest"), Map.of(), "application/json");
            assertThat(text(empty.encode(UnpooledByteBufAllocator.DEFAULT, NO_BODY))).as(method)
                    .isEqualTo(method + " /ingest HTTP/1.1\r\nHost: h\r\nUser-Agent: rigscope\r\n"
                            + "Content-Type: application/json\r\nContent-Length: 0\r\n\r\n");
        }
    }

    @Test
    void aGetHeadOrDeleteWithoutABodyHasNoContentLength() {
        for (String method : new String[] {"GET", "HEAD", "DELETE"}) {
            RequestEncoder empty = new RequestEncoder(method, URI.create("http://h/x"), Map.of(), null);
            assertThat(text(empty.encode(UnpooledByteBufAllocator.DEFAULT, NO_BODY))).as(method)
                    .isEqualTo(method + " /x HTTP/1.1\r\nHost: h\r\nUser-Agent: rigscope\r\n\r\n");
        }
    }

    @Test
    void onlyAHeadRequestIsFlaggedHead() {
        RequestEncoder head = new RequestEncoder("HEAD", URI.create("http://h/x"), Map.of(), null);
        assertThat(head.head()).isTrue();
        assertThat(text(head.encode(UnpooledByteBufAllocator.DEFAULT, NO_BODY))).startsWith("HEAD /x HTTP/1.1\r\n");
        assertThat(new RequestEncoder("GET", URI.create("http://h/x"), Map.of(), null).head()).isFalse();
        assertThat(new RequestEncoder("POST", URI.create("http://h/x"), Map.of(), "text/plain").head()).isFalse();
    }

    @Test
    void aHeaderNameThatIsNotATokenIsRefusedByName() {
        for (String name : new String[] {"X Bad", "X:Bad", "X-A\r\nEvil", "X-B\nEvil", "", "X\tTab", "Ümlaut", "(x)"}) {
            assertThatThrownBy(() -> new RequestEncoder("GET", URI.create("http://h/"), Map.of(name, "v"), null))
                    .as("name %s", name)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("header name '" + name + "'");
        }
    }

    @Test
    void aHeaderValueWithCrOrLfIsRefusedByName() {
        for (String value : new String[] {"a\r\nX-Injected: 1", "a\nb", "a\rb", "\r\n"}) {
            assertThatThrownBy(() -> new RequestEncoder("GET", URI.create("http://h/"), Map.of("X-Key", value), null))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("'X-Key'")
                    .hasMessageContaining("CR or LF");
        }
    }

    @Test
    void headersTheGeneratorSetsItselfAreRefusedInAnyCase() {
        for (String name : new String[] {"Content-Length", "content-length", "Host", "HOST", "Transfer-Encoding",
                "transfer-encoding"}) {
            assertThatThrownBy(() -> new RequestEncoder("POST", URI.create("http://h/"), Map.of(name, "1"), "text/plain"))
                    .as(name)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("'" + name + "'")
                    .hasMessageContaining("set by the generator");
        }
    }

    @Test
    void theBodylessRequestCanBeWrittenAndReleasedAnyNumberOfTimes() {
        RequestEncoder get = new RequestEncoder("GET", URI.create("http://h:1/p?q"), Map.of("X-A", "1"), null);
        String expected = "GET /p?q HTTP/1.1\r\nHost: h:1\r\nX-A: 1\r\nUser-Agent: rigscope\r\n\r\n";
        for (int i = 0; i < 10_000; i++) {
            ByteBuf buf = get.encode(PooledByteBufAllocator.DEFAULT, NO_BODY);
            byte[] read = new byte[buf.readableBytes()];
            buf.readBytes(read); // as a channel write does: it consumes the duplicate's reader index
            assertThat(buf.isReadable()).isFalse();
            assertThat(buf.release()).as("release of write %d frees nothing", i).isFalse();
            assertThat(buf.refCnt()).isPositive();
            if (i % 1_000 == 0) {
                assertThat(new String(read, StandardCharsets.ISO_8859_1)).isEqualTo(expected);
            }
        }
        ByteBuf again = get.encode(PooledByteBufAllocator.DEFAULT, NO_BODY);
        assertThat(again.isReadOnly()).isTrue();
        assertThat(text(again)).isEqualTo(expected);
    }
}
