package io.rigscope.generator.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * One {@link HttpConnection} on an embedded channel, fed response bytes as a server would send them: where each
 * response ends, its status, its body length, whether the connection is reused, and how it fails.
 */
class HttpConnectionTest {

    /** What the connection told its owner, in order. */
    private static class Recorder implements HttpConnection.Listener {
        final List<String> events = new ArrayList<>();
        Throwable failure;

        @Override
        public void onOpen(HttpConnection connection) {
            events.add("open");
        }

        @Override
        public void onResponse(HttpConnection connection, int status, long bodyBytes, boolean keepAlive) {
            events.add("response " + status + " " + bodyBytes + (keepAlive ? " keep-alive" : " close"));
        }

        @Override
        public void onFailure(HttpConnection connection, Throwable cause) {
            failure = cause;
            events.add("failure " + cause.getClass().getSimpleName());
        }

        @Override
        public void onClosed(HttpConnection connection) {
            events.add("closed");
        }
    }

    private final Recorder recorder = new Recorder();
    private final HttpConnection connection = new HttpConnection(recorder, 1024);
    private final EmbeddedChannel channel = new EmbeddedChannel(connection);

    private void send(boolean head) {
        connection.send(Unpooled.copiedBuffer(head ? "HEAD / HTTP/1.1\r\n\r\n" : "GET / HTTP/1.1\r\n\r\n",
                StandardCharsets.US_ASCII), head);
        ByteBuf written = channel.readOutbound();
        written.release();
    }

    private void receive(String bytes) {
        channel.writeInbound(Unpooled.copiedBuffer(bytes, StandardCharsets.ISO_8859_1));
    }

    /** The events after "open". */
    private List<String> events() {
        assertThat(recorder.events).first().isEqualTo("open");
        return recorder.events.subList(1, recorder.events.size());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            fixed length                  | HTTP/1.1 200 OK\\r\\nContent-Length: 5\\r\\n\\r\\nhello                                  | response 200 5 keep-alive
            empty fixed length            | HTTP/1.1 201 Created\\r\\nContent-Length: 0\\r\\n\\r\\n                                | response 201 0 keep-alive
            chunked, extension, trailer   | HTTP/1.1 200 OK\\r\\nTransfer-Encoding: chunked\\r\\n\\r\\n5;x=y\\r\\nhello\\r\\nA\\r\\n0123456789\\r\\n0\\r\\nT: 1\\r\\n\\r\\n | response 200 15 keep-alive
            connection close              | HTTP/1.1 200 OK\\r\\nConnection: close\\r\\nContent-Length: 2\\r\\n\\r\\nok           | response 200 2 close
            HTTP/1.0 without keep-alive   | HTTP/1.0 200 OK\\r\\nContent-Length: 2\\r\\n\\r\\nok                                     | response 200 2 close
            HTTP/1.0 with keep-alive      | HTTP/1.0 200 OK\\r\\nConnection: keep-alive\\r\\nContent-Length: 2\\r\\n\\r\\nok      | response 200 2 keep-alive
            no content                    | HTTP/1.1 204 No Content\\r\\n\\r\\n                                                  | response 204 0 keep-alive
            not modified with a length    | HTTP/1.1 304 Not Modified\\r\\nContent-Length: 10\\r\\n\\r\\n                          | response 304 0 keep-alive
            interim 100 then the response | HTTP/1.1 100 Continue\\r\\n\\r\\nHTTP/1.1 503 Busy\\r\\nContent-Length: 3\\r\\n\\r\\nbye | response 503 3 keep-alive
            bytes after the response      | HTTP/1.1 200 OK\\r\\nContent-Length: 2\\r\\n\\r\\nokHTTP/1.1                            | response 200 2 close
            """)
    void aResponseEndsWhereItsFramingSaysWithItsStatusBodyLengthAndReuse(String name, String response, String expected) {
        String bytes = response.replace("\\r\\n", "\r\n");
        send(false);
        receive(bytes);
        assertThat(events()).containsExactly(expected);
        assertThat(channel.isOpen()).isEqualTo(expected.endsWith("keep-alive"));
    }

    @Test
    void aResponseSplitAtEveryByteEndsLikeOneInOnePiece() {
        String response = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n";
        send(false);
        for (int i = 0; i < response.length(); i++) {
            receive(response.substring(i, i + 1));
        }
        assertThat(events()).containsExactly("response 200 3 keep-alive");
    }

    @Test
    void aKeepAliveConnectionCarriesOneRequestAfterAnother() {
        for (int i = 0; i < 3; i++) {
            send(false);
            receive("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
        }
        send(true);
        receive("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n");
        send(false);
        receive("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
        assertThat(events()).containsExactly("response 200 2 keep-alive", "response 200 2 keep-alive",
                "response 200 2 keep-alive", "response 200 0 keep-alive", "response 200 2 keep-alive");
        assertThat(channel.isOpen()).isTrue();
    }

    @Test
    void aBodyWithoutLengthOrChunksEndsAtTheClose() {
        send(false);
        receive("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nthe close ends me");
        assertThat(events()).isEmpty();
        channel.close();
        assertThat(events()).containsExactly("response 200 17 close");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            nothing            | ''
            half a status line | HTTP/1.1 20
            half the headers   | HTTP/1.1 200 OK\\r\\nContent-Len
            half the body      | HTTP/1.1 200 OK\\r\\nContent-Length: 100\\r\\n\\r\\n0123456789
            half the chunks    | HTTP/1.1 200 OK\\r\\nTransfer-Encoding: chunked\\r\\n\\r\\n5\\r\\nhel
            """)
    void aCloseBeforeTheResponseIsCompleteIsAPrematureClose(String name, String partial) {
        send(false);
        receive(partial.replace("\\r\\n", "\r\n"));
        channel.close();
        assertThat(events()).containsExactly("failure PrematureCloseException");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            bad status code       | HTTP/1.1 2x0 OK\\r\\nContent-Length: 0\\r\\n\\r\\n
            not HTTP              | SSH-2.0-OpenSSH_9.2\\r\\n\\r\\n
            bad content length    | HTTP/1.1 200 OK\\r\\nContent-Length: ten\\r\\n\\r\\n
            bad chunk size        | HTTP/1.1 200 OK\\r\\nTransfer-Encoding: chunked\\r\\n\\r\\nzz\\r\\n
            head over the limit   | HTTP/1.1 200 OK\\r\\nX-Long: %s\\r\\n\\r\\n
            """)
    void aMalformedResponseFailsTheRequestAndClosesTheConnection(String name, String response) {
        send(false);
        receive(response.replace("\\r\\n", "\r\n").replace("%s", "x".repeat(2000)));
        assertThat(events()).containsExactly("failure MalformedResponseException");
        assertThat(recorder.failure).hasMessageNotContaining("null");
        assertThat(channel.isOpen()).isFalse();
    }

    @Test
    void bytesFromTheServerWithNoRequestOutCloseTheConnection() {
        receive("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
        assertThat(events()).containsExactly("closed");
        assertThat(channel.isOpen()).isFalse();
    }

    @Test
    void aServerThatClosesAnIdleConnectionIsAClosedConnectionNotAFailure() {
        send(false);
        receive("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
        channel.close();
        assertThat(events()).containsExactly("response 200 2 keep-alive", "closed");
    }

    /** What a connection keeping bodies showed its owner in each {@code onResponse}. */
    private static final class BodyRecorder extends Recorder {
        final List<String> bodies = new ArrayList<>();

        @Override
        public void onResponse(HttpConnection connection, int status, long bodyBytes, boolean keepAlive) {
            super.onResponse(connection, status, bodyBytes, keepAlive);
            bodies.add(new String(connection.keptBody(), 0, connection.keptBodyBytes(), StandardCharsets.ISO_8859_1)
                    + (connection.bodyTruncated() ? " (truncated)" : ""));
        }
    }

    @Test
    void aConnectionAskedToKeepBodiesKeepsEachUpToItsCapAndSaysWhenItCutOne() {
        BodyRecorder bodies = new BodyRecorder();
        HttpConnection keeping = new HttpConnection(bodies, 1024, 8);
        EmbeddedChannel ch = new EmbeddedChannel(keeping);
        String[] responses = {
            "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n4\r\ndefg\r\n0\r\n\r\n",
            "HTTP/1.1 200 OK\r\nContent-Length: 12\r\n\r\n0123456789AB",
            "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 404 Not Found\r\nContent-Length: 3\r\n\r\nnah",
            "HTTP/1.1 204 No Content\r\n\r\n",
        };
        for (String response : responses) {
            keeping.send(Unpooled.copiedBuffer("GET / HTTP/1.1\r\n\r\n", StandardCharsets.US_ASCII), false);
            ((ByteBuf) ch.readOutbound()).release();
            ByteBuf in = Unpooled.copiedBuffer(response, StandardCharsets.ISO_8859_1);
            ch.writeInbound(in);
            assertThat(in.refCnt()).as("the bytes read are released").isZero();
        }
        assertThat(bodies.bodies).containsExactly("hello", "abcdefg", "01234567 (truncated)", "nah", "");
        assertThat(bodies.events.subList(1, bodies.events.size())).containsExactly("response 200 5 keep-alive",
                "response 200 7 keep-alive", "response 200 12 keep-alive", "response 404 3 keep-alive",
                "response 204 0 keep-alive");
        ch.finishAndReleaseAll();
    }

    @Test
    void aConnectionNotAskedToKeepBodiesKeepsNone() {
        BodyRecorder bodies = new BodyRecorder();
        HttpConnection counting = new HttpConnection(bodies, 1024);
        EmbeddedChannel ch = new EmbeddedChannel(counting);
        counting.send(Unpooled.copiedBuffer("GET / HTTP/1.1\r\n\r\n", StandardCharsets.US_ASCII), false);
        ((ByteBuf) ch.readOutbound()).release();
        ch.writeInbound(Unpooled.copiedBuffer("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello", StandardCharsets.US_ASCII));
        assertThat(bodies.bodies).containsExactly("");
        assertThat(counting.keptBody()).isEmpty();
        assertThat(bodies.events).contains("response 200 5 keep-alive");
        ch.finishAndReleaseAll();
    }
}
