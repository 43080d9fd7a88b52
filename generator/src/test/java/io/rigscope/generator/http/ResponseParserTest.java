package io.rigscope.generator.http;

import static io.rigscope.generator.http.ResponseParser.NEED_MORE;
import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.HttpResponseEncoder;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

class ResponseParserTest {

    private static final int LIMIT = 1024;

    /** What one response parsed to; {@code unread} is every byte the parser left in the buffers. */
    private record Outcome(int status, long bodyBytes, boolean keepAlive, String unread) {
    }

    // ---- framing --------------------------------------------------------------------------------------------

    @Test
    void aFixedLengthResponseEndsAfterItsContentLengthBytes() {
        Outcome outcome = parseEveryWay("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\nhello",
                false);
        assertThat(outcome).isEqualTo(new Outcome(200, 5, true, ""));
    }

    @Test
    void anEmptyContentLengthBodyCompletesAtTheEndOfTheHead() {
        assertThat(parseEveryWay("HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n", false))
                .isEqualTo(new Outcome(202, 0, true, ""));
    }

    @Test
    void aChunkedBodyIsCountedAfterDechunkingWithExtensionsAndTrailers() {
        String body26 = "abcdefghijklmnopqrstuvwxyz";
        String message = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "5;name=value\r\nhello\r\n"
                + "1A ; a=1;b=\"x\"\r\n" + body26 + "\r\n"
                + "0\r\nX-Checksum: abc\r\nX-Other: 1\r\n\r\n";
        assertThat(parseEveryWay(message, false)).isEqualTo(new Outcome(200, 31, true, ""));
    }

    @Test
    void chunkSizesAreHexInEitherCaseWithLeadingZeros() {
        String message = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "0000a\r\n0123456789\r\nB\r\n0123456789a\r\n000\r\n\r\n";
        assertThat(parseEveryWay(message, false)).isEqualTo(new Outcome(200, 21, true, ""));
    }

    @Test
    void onlyTheFinalTransferCodingDecidesChunkedFraming() {
        String chunkedLast = "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\ntransfer-encoding: CHUNKED\r\n\r\n"
                + "3\r\nabc\r\n0\r\n\r\n";
        assertThat(parseEveryWay(chunkedLast, false)).isEqualTo(new Outcome(200, 3, true, ""));

        String gzipLast = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, gzip\r\n\r\n3\r\nabc\r\n0\r\n\r\n";
        assertThat(parseEveryWay(gzipLast, false))
                .as("a final coding other than chunked delimits the body by the close")
                .isEqualTo(new Outcome(200, 13, false, ""));
    }

    @Test
    void chunkedFramingOverridesContentLengthAndTheConnectionIsNotReused() {
        String message = "HTTP/1.1 200 OK\r\nContent-Length: 100\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "2\r\nok\r\n0\r\n\r\n";
        assertThat(parseEveryWay(message, false)).isEqualTo(new Outcome(200, 2, false, ""));
    }

    @Test
    void aResponseToHeadHasNoBodyWhateverItsHeadersSay() {
        assertThat(parseEveryWay("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n", true))
                .isEqualTo(new Outcome(200, 0, true, ""));
        assertThat(parseEveryWay("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", true))
                .isEqualTo(new Outcome(200, 0, true, ""));
        assertThat(parseEveryWay("HTTP/1.1 200 OK\r\n\r\nHTTP/1.1", true))
                .as("without a length either, the next bytes belong to the next response")
                .isEqualTo(new Outcome(200, 0, true, "HTTP/1.1"));
    }

    @Test
    void noContentAndNotModifiedResponsesHaveNoBody() {
        assertThat(parseEveryWay("HTTP/1.1 204 No Content\r\nDate: x\r\n\r\nNEXT", false))
                .isEqualTo(new Outcome(204, 0, true, "NEXT"));
        assertThat(parseEveryWay("HTTP/1.1 304 Not Modified\r\nContent-Length: 1234\r\n\r\nNEXT", false))
                .isEqualTo(new Outcome(304, 0, true, "NEXT"));
    }

    @Test
    void interimResponsesAreSkippedAndTheFinalStatusIsReturned() {
        String message = "HTTP/1.1 100 Continue\r\n\r\n"
                + "HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\nConnection: close\r\n\r\n"
                + "HTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok";
        assertThat(parseEveryWay(message, false))
                .as("an interim response's headers do not apply to the final response")
                .isEqualTo(new Outcome(201, 2, true, ""));
    }

    @Test
    void switchingProtocolsEndsTheResponseAndTheConnectionLeavesHttp() {
        assertThat(parseEveryWay("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n\u0081\u0002hi", false))
                .isEqualTo(new Outcome(101, 0, false, "\u0081\u0002hi"));
    }

    @Test
    void aResponseWithoutLengthRunsUntilTheCloseAndClosedReturnsItsStatus() {
        assertThat(parseEveryWay("HTTP/1.0 200 OK\r\nServer: old\r\n\r\nsome body", false))
                .isEqualTo(new Outcome(200, 9, false, ""));
        assertThat(parseEveryWay("HTTP/1.1 500 Internal Server Error\r\nConnection: keep-alive\r\n\r\n", false))
                .as("an empty close-delimited body, even when the server claims keep-alive")
                .isEqualTo(new Outcome(500, 0, false, ""));
    }

    @ParameterizedTest(name = "{0} with Connection ''{1}'' -> keepAlive {2}")
    @CsvSource({
            "HTTP/1.1, , true",
            "HTTP/1.1, close, false",
            "HTTP/1.1, Close, false",
            "HTTP/1.1, 'Keep-Alive, CLOSE', false",
            "HTTP/1.1, 'upgrade ,\tclose ', false",
            "HTTP/1.1, closed, true",
            "HTTP/1.1, keep-alive, true",
            "HTTP/1.0, , false",
            "HTTP/1.0, keep-alive, true",
            "HTTP/1.0, Keep-Alive, true",
            "HTTP/1.0, 'keep-alive, close', false",
    })
    void keepAliveFollowsTheVersionAndTheConnectionTokens(String version, String connection, boolean keepAlive) {
        String message = version + " 200 OK\r\n"
                + (connection == null ? "" : "Connection: " + connection + "\r\n")
                + "Content-Length: 2\r\n\r\nok";
        assertThat(parseEveryWay(message, false)).isEqualTo(new Outcome(200, 2, keepAlive, ""));
    }

    @Test
    void transferEncodingOnAnHttp10ResponseIsFramedButTheConnectionIsNotReused() {
        String message = "HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "2\r\nok\r\n0\r\n\r\n";
        assertThat(parseEveryWay(message, false)).isEqualTo(new Outcome(200, 2, false, ""));
    }

    @Test
    void aTruncatedResponseIsNeedMoreWhenThePeerCloses() {
        assertThat(parseEveryWay("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc", false))
                .isEqualTo(new Outcome(NEED_MORE, 3, false, ""));
        assertThat(parseEveryWay("HTTP/1.1 200 OK\r\nContent-Le", false))
                .isEqualTo(new Outcome(NEED_MORE, 0, false, ""));
        assertThat(parseEveryWay("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n", false))
                .isEqualTo(new Outcome(NEED_MORE, 3, false, ""));
        assertThat(parseEveryWay("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nX-T: 1\r\n", false))
                .as("trailers not yet ended")
                .isEqualTo(new Outcome(NEED_MORE, 0, false, ""));
    }

    @Test
    void startedTurnsTrueWithTheFirstConsumedByteOfEachResponse() {
        ResponseParser parser = new ResponseParser(LIMIT);
        parser.begin(false);
        assertThat(parser.started()).isFalse();
        assertThat(parser.feed(Unpooled.EMPTY_BUFFER)).isEqualTo(NEED_MORE);
        assertThat(parser.started()).isFalse();
        assertThat(parser.closed()).as("nothing received: the response never started").isEqualTo(NEED_MORE);

        parser.begin(false);
        assertThat(parser.feed(ascii("H"))).isEqualTo(NEED_MORE);
        assertThat(parser.started()).isTrue();
        assertThat(parser.feed(ascii("TTP/1.1 204 No Content\r\n\r\n"))).isEqualTo(204);
        parser.begin(false);
        assertThat(parser.started()).isFalse();
        assertThat(parser.keepAlive()).as("no response complete since begin()").isFalse();
    }

    @Test
    void bytesAfterTheResponseStayUnreadAndTheNextResponseParsesAfterBegin() {
        ByteBuf buf = ascii("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc"
                + "HTTP/1.1 404 Not Found\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nnope\r\n0\r\n\r\n"
                + "HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nhead-only"
                + "HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 1\r\n\r\nx");
        ResponseParser parser = new ResponseParser(LIMIT);

        parser.begin(false);
        assertThat(parser.feed(buf)).isEqualTo(200);
        assertThat(buf.toString(US_ASCII)).startsWith("HTTP/1.1 404");
        assertThat(parser.bodyBytes()).isEqualTo(3);

        parser.begin(false);
        assertThat(parser.feed(buf)).isEqualTo(404);
        assertThat(parser.bodyBytes()).isEqualTo(4);
        assertThat(parser.keepAlive()).isTrue();

        parser.begin(true);
        assertThat(parser.feed(buf)).isEqualTo(200);
        assertThat(parser.bodyBytes()).isZero();
        assertThat(buf.toString(US_ASCII)).as("the body the HEAD response announced is not there")
                .startsWith("head-onlyHTTP/1.1 503");
        buf.skipBytes("head-only".length());

        parser.begin(false);
        assertThat(parser.feed(buf)).isEqualTo(503);
        assertThat(parser.bodyBytes()).isEqualTo(1);
        assertThat(parser.keepAlive()).isFalse();
        assertThat(buf.isReadable()).isFalse();
    }

    @Test
    void feedingWithoutAResponseInProgressIsRejected() {
        ResponseParser parser = new ResponseParser(LIMIT);
        assertThatThrownBy(() -> parser.feed(ascii("HTTP/1.1 200 OK\r\n")))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("begin()");
        parser.begin(false);
        assertThat(parser.feed(ascii("HTTP/1.1 204 No Content\r\n\r\n"))).isEqualTo(204);
        ByteBuf unsolicited = ascii("HTTP/1.1 200 OK\r\n");
        assertThatThrownBy(() -> parser.feed(unsolicited)).isInstanceOf(IllegalStateException.class);
        assertThat(unsolicited.readerIndex()).isZero();
    }

    @Test
    void bareLineFeedsAreAcceptedWhereCrlfIsExpected() {
        assertThat(parseEveryWay("HTTP/1.1 200 OK\nContent-Length: 2\n\nok", false))
                .isEqualTo(new Outcome(200, 2, true, ""));
        assertThat(parseEveryWay("HTTP/1.1 200 OK\nTransfer-Encoding: chunked\n\n2\nok\n1\r\n!\n0\nT: 1\n\n", false))
                .isEqualTo(new Outcome(200, 3, true, ""));
    }

    @Test
    void headerNamesAreCaseInsensitiveAndValuesAreTrimmed() {
        assertThat(parseEveryWay("HTTP/1.1 200 OK\r\ncontent-LENGTH:\t 3 \t\r\nCONNECTION:CLOSE\r\n\r\nabc", false))
                .isEqualTo(new Outcome(200, 3, false, ""));
    }

    @Test
    void repeatedOrListedEqualContentLengthsAreOneLength() {
        assertThat(parseEveryWay("HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 3, 3\r\n\r\nabc", false))
                .isEqualTo(new Outcome(200, 3, true, ""));
    }

    @Test
    void aStatusLineMayHaveAnEmptyReasonWithOrWithoutItsSpace() {
        assertThat(parseEveryWay("HTTP/1.1 200\r\nContent-Length: 1\r\n\r\nx", false))
                .isEqualTo(new Outcome(200, 1, true, ""));
        assertThat(parseEveryWay("HTTP/1.1 200 \r\nContent-Length: 1\r\n\r\nx", false))
                .isEqualTo(new Outcome(200, 1, true, ""));
        assertThat(parseEveryWay("HTTP/1.1 599 Whatever It Says: 200 OK\r\nContent-Length: 1\r\n\r\nx", false))
                .isEqualTo(new Outcome(599, 1, true, ""));
    }

    @Test
    void aFoldedContinuationOfAnUninterpretedHeaderIsIgnored() {
        assertThat(parseEveryWay("HTTP/1.1 200 OK\r\nX-Long: a\r\n  b\r\n\tc\r\nContent-Length: 1\r\n\r\nx", false))
                .isEqualTo(new Outcome(200, 1, true, ""));
    }

    @Test
    void aHeadOfExactlyTheLimitIsAccepted() {
        String start = "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nX-Pad: ";
        String end = "\r\n\r\n";
        String head = start + "p".repeat(LIMIT - start.length() - end.length()) + end;
        assertThat(head).hasSize(LIMIT);
        assertThat(parseEveryWay(head + "x", false)).isEqualTo(new Outcome(200, 1, true, ""));
    }

    @Test
    void aContentLengthBeyondTheIntRangeIsSkippedAcrossFeeds() {
        long length = 3_000_000_123L;
        ResponseParser parser = new ResponseParser(LIMIT);
        parser.begin(false);
        assertThat(parser.feed(ascii("HTTP/1.1 200 OK\r\nContent-Length: " + length + "\r\n\r\n"))).isEqualTo(NEED_MORE);
        ByteBuf megabyte = Unpooled.wrappedBuffer(new byte[1 << 20]);
        long fed = 0;
        int status = NEED_MORE;
        while (status == NEED_MORE) {
            megabyte.readerIndex(0);
            status = parser.feed(megabyte);
            fed += megabyte.readerIndex();
        }
        assertThat(status).isEqualTo(200);
        assertThat(fed).isEqualTo(length);
        assertThat(parser.bodyBytes()).isEqualTo(length);
        assertThat(megabyte.readableBytes()).isEqualTo((1 << 20) - (int) (length % (1 << 20)));
    }

    @Test
    void directAndCompositeBuffersParseLikeHeapBuffers() {
        String message = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\nREST";
        byte[] bytes = message.getBytes(US_ASCII);

        ByteBuf direct = Unpooled.directBuffer(bytes.length).writeBytes(bytes);
        ResponseParser parser = new ResponseParser(LIMIT);
        parser.begin(false);
        assertThat(parser.feed(direct)).isEqualTo(200);
        assertThat(direct.toString(US_ASCII)).isEqualTo("REST");
        direct.release();

        for (int split = 1; split < bytes.length; split++) {
            CompositeByteBuf composite = Unpooled.compositeBuffer()
                    .addComponent(true, Unpooled.wrappedBuffer(bytes, 0, split))
                    .addComponent(true, Unpooled.wrappedBuffer(bytes, split, bytes.length - split));
            parser.begin(false);
            assertThat(parser.feed(composite)).isEqualTo(200);
            assertThat(parser.bodyBytes()).isEqualTo(3);
            assertThat(composite.toString(US_ASCII)).isEqualTo("REST");
            composite.release();
        }
    }

    @Test
    void parsingKeepAliveResponsesAllocatesNothingPerResponse() {
        ByteBuf fixed = ascii("HTTP/1.1 201 Created\r\nContent-Type: application/json\r\ncontent-length: 13\r\n"
                + "Date: Mon, 30 Nov 2026 04:50:00 GMT\r\nConnection: keep-alive\r\n\r\n{\"written\":1}");
        ByteBuf chunked = ascii("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\na\r\n2\r\nbb\r\n0\r\n\r\n");
        ResponseParser parser = new ResponseParser(65_536);
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().getId();
        int responses = 20_000;
        long checksum = parseRepeatedly(parser, fixed, chunked, responses); // warm-up
        long before = threads.getThreadAllocatedBytes(thread);
        checksum += parseRepeatedly(parser, fixed, chunked, responses);
        long allocatedBytes = threads.getThreadAllocatedBytes(thread) - before;

        assertThat(checksum).isEqualTo(2L * (responses / 2) * (201 + 13 + 200 + 3));
        assertThat(allocatedBytes).as("bytes allocated for %d responses", responses).isLessThan(responses / 10);
    }

    private static long parseRepeatedly(ResponseParser parser, ByteBuf fixed, ByteBuf chunked, int responses) {
        long checksum = 0;
        for (int i = 0; i < responses; i++) {
            ByteBuf buf = (i & 1) == 0 ? fixed : chunked;
            buf.readerIndex(0);
            parser.begin(false);
            checksum += parser.feed(buf) + parser.bodyBytes();
        }
        return checksum;
    }

    // ---- malformed responses --------------------------------------------------------------------------------

    @Test
    void aBadStatusLineIsMalformed() {
        assertMalformed("HTTP/1.1 2x0 OK\r\n\r\n", "bad status line: 'HTTP/1.1 2x0 OK'");
        assertMalformed("HTTP/2 200 OK\r\n\r\n", "bad status line: 'HTTP/2 200 OK'");
        assertMalformed("HTTP/1.1 200OK\r\n\r\n", "bad status line: 'HTTP/1.1 200OK'");
        assertMalformed("http/1.1 200 OK\r\n\r\n", "bad status line: 'http/1.1 200 OK'");
        assertMalformed("HTTP/1.1 099 Low\r\n\r\n", "bad status line: 'HTTP/1.1 099 Low'");
        assertMalformed("HTTP/1.1 20\r\n\r\n", "bad status line: 'HTTP/1.1 20'");
        assertMalformed("\r\nHTTP/1.1 200 OK\r\n\r\n", "bad status line: ''");
    }

    @Test
    void aNonNumericNegativeOrConflictingContentLengthIsMalformed() {
        assertMalformed("HTTP/1.1 200 OK\r\nContent-Length: abc\r\n\r\n", "bad Content-Length 'abc': not a non-negative integer");
        assertMalformed("HTTP/1.1 200 OK\r\nContent-Length: -5\r\n\r\n", "bad Content-Length '-5': not a non-negative integer");
        assertMalformed("HTTP/1.1 200 OK\r\nContent-Length: +5\r\n\r\n", "bad Content-Length '+5': not a non-negative integer");
        assertMalformed("HTTP/1.1 200 OK\r\nContent-Length:\r\n\r\n", "bad Content-Length '': empty value");
        assertMalformed("HTTP/1.1 200 OK\r\nContent-Length: 5,\r\n\r\n", "bad Content-Length '5,': empty value");
        assertMalformed("HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999\r\n\r\n",
                "bad Content-Length '99999999999999999999': too large");
        assertMalformed("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 7\r\n\r\n",
                "conflicting Content-Length values 5 and 7");
        assertMalformed("HTTP/1.1 200 OK\r\nContent-Length: 5, 7\r\n\r\n", "conflicting Content-Length values 5 and 7");
    }

    @Test
    void aBadChunkSizeIsMalformedAndNamesTheChunk() {
        String head = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n";
        assertMalformed(head + "1\r\na\r\n2\r\nbb\r\nzz\r\n", "bad chunk size 'zz' in chunk 3");
        assertMalformed(head + "\r\n", "bad chunk size '' in chunk 1");
        assertMalformed(head + "-1\r\n", "bad chunk size '-1' in chunk 1");
        assertMalformed(head + "5 x\r\n", "bad chunk size '5 x' in chunk 1");
        assertMalformed(head + "0x10\r\n", "bad chunk size '0x10' in chunk 1");
        assertMalformed(head + "10000000000000000\r\n", "chunk size '10000000000000000' too large in chunk 1");
    }

    @Test
    void chunkDataNotFollowedByCrlfIsMalformed() {
        String head = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n";
        assertMalformed(head + "5\r\nhelloX\r\n0\r\n\r\n", "missing CRLF after the data of chunk 1 (found 'X')");
        assertMalformed(head + "1\r\na\r\n5\r\nhello\rX\n0\r\n\r\n", "missing CRLF after the data of chunk 2 (found 'X')");
        assertMalformed(head + "5\r\nhello\r\r\n", "missing CRLF after the data of chunk 1 (found byte 0x0d)");
    }

    @Test
    void aHeadOverTheLimitIsMalformed() {
        String start = "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nX-Pad: ";
        String end = "\r\n\r\n";
        String head = start + "p".repeat(LIMIT + 1 - start.length() - end.length()) + end;
        assertMalformed(head + "x", "response head over 1024 bytes");
        assertMalformed("HTTP/1.1 200 OK\r\nX-Endless: " + "e".repeat(5000), "response head over 1024 bytes");
    }

    @Test
    void aChunkSizeLineOrTrailersOverTheLimitAreMalformed() {
        String head = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n";
        assertMalformed(head + "1;" + "e".repeat(LIMIT) + "\r\n", "chunk-size line of chunk 1 over 1024 bytes");
        assertMalformed(head + "0\r\nX-T: " + "t".repeat(LIMIT) + "\r\n\r\n", "trailers over 1024 bytes");
    }

    @Test
    void badHeaderLinesAreMalformed() {
        assertMalformed("HTTP/1.1 200 OK\r\nNo colon here\r\n\r\n", "bad header line (no ':'): 'No colon here'");
        assertMalformed("HTTP/1.1 200 OK\r\n: no name\r\n\r\n", "bad header line (empty name): ': no name'");
        assertMalformed("HTTP/1.1 200 OK\r\nContent-Length : 5\r\n\r\nhello",
                "whitespace before ':' in header line 'Content-Length : 5'");
        assertMalformed("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n 5\r\n\r\nhello",
                "folded continuation line of the Content-Length header: ' 5'");
        assertMalformed("HTTP/1.1 200 OK\r\nTransfer-Encoding: \r\n\r\n", "empty Transfer-Encoding");
        assertMalformed("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nno colon\r\n\r\n",
                "bad trailer line: 'no colon'");
    }

    @Test
    void aMalformedResponseStopsTheParserUntilBegin() {
        ResponseParser parser = new ResponseParser(LIMIT);
        parser.begin(false);
        assertThatThrownBy(() -> parser.feed(ascii("HTTP/1.1 2x0 OK\r\n"))).isInstanceOf(MalformedResponseException.class);
        assertThatThrownBy(() -> parser.feed(ascii("\r\n"))).isInstanceOf(IllegalStateException.class);
        parser.begin(false);
        assertThat(parser.feed(ascii("HTTP/1.1 204 No Content\r\n\r\n"))).isEqualTo(204);
    }

    @Test
    void bytesBeyondTheContentLengthAreNotAResponse() {
        ByteBuf buf = ascii("HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nxy\r\n");
        ResponseParser parser = new ResponseParser(LIMIT);
        parser.begin(false);
        assertThat(parser.feed(buf)).isEqualTo(200);
        parser.begin(false);
        assertThatThrownBy(() -> parser.feed(buf)).isInstanceOf(MalformedResponseException.class)
                .hasMessage("bad status line: 'y'");
    }

    @Test
    void nonPrintableBytesAreEscapedInMessages() {
        assertMalformed("HTTP/1.1 2\u00010 OK\r\n\r\n", "bad status line: 'HTTP/1.1 2\\x010 OK'");
    }

    // ---- bytes from real HTTP implementations ---------------------------------------------------------------

    @Test
    void aFullResponseFromNettysEncoderParsesToItsStatusAndLength() {
        List<ByteBuf> encoded = encode(fullResponse());
        ResponseParser parser = new ResponseParser(LIMIT);
        parser.begin(false);
        assertThat(feedAll(parser, encoded)).isEqualTo(201);
        assertThat(parser.bodyBytes()).isEqualTo(300);
        assertThat(parser.keepAlive()).isTrue();

        assertThat(parseEveryWay(concat(encode(fullResponse())), false)).isEqualTo(new Outcome(201, 300, true, ""));
    }

    @Test
    void aChunkedResponseWithTrailersFromNettysEncoderParsesToItsStatusAndLength() {
        List<ByteBuf> encoded = encode(chunkedResponseParts());
        ResponseParser parser = new ResponseParser(LIMIT);
        parser.begin(false);
        assertThat(feedAll(parser, encoded)).isEqualTo(200);
        assertThat(parser.bodyBytes()).isEqualTo(1002);
        assertThat(parser.keepAlive()).isTrue();

        String wire = concat(encode(chunkedResponseParts()));
        assertThat(wire).contains("X-Checksum: 1234");
        assertThat(parseEveryWay(wire, false)).isEqualTo(new Outcome(200, 1002, true, ""));
    }

    @Test
    void responsesFromAReactorNettyServerParseOverOneKeepAliveSocket() throws IOException {
        DisposableServer server = HttpServer.create().host("127.0.0.1").port(0)
                .route(routes -> routes
                        .get("/fixed", (req, res) -> res.sendString(Mono.just("hello")))
                        .get("/stream", (req, res) -> res.sendString(Flux.just("a", "bb", "ccc"))))
                .bindNow();
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", server.port()), 5_000);
            socket.setSoTimeout(5_000);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            String host = "Host: 127.0.0.1:" + server.port() + "\r\n";
            ResponseParser parser = new ResponseParser(65_536);

            out.write(("GET /fixed HTTP/1.1\r\n" + host + "\r\n").getBytes(US_ASCII));
            parser.begin(false);
            assertThat(readResponse(in, parser)).isEqualTo(200);
            assertThat(parser.bodyBytes()).isEqualTo(5);
            assertThat(parser.keepAlive()).isTrue();

            out.write(("GET /stream HTTP/1.1\r\n" + host + "\r\n").getBytes(US_ASCII));
            parser.begin(false);
            assertThat(readResponse(in, parser)).isEqualTo(200);
            assertThat(parser.bodyBytes()).isEqualTo(6);
            assertThat(parser.keepAlive()).isTrue();

            out.write(("GET /missing HTTP/1.1\r\n" + host + "Connection: close\r\n\r\n").getBytes(US_ASCII));
            parser.begin(false);
            assertThat(readResponse(in, parser)).isEqualTo(404);
            assertThat(parser.keepAlive()).isFalse();
            assertThat(in.read()).as("the server closes after Connection: close").isEqualTo(-1);
        } finally {
            server.disposeNow();
        }
    }

    // ---- helpers --------------------------------------------------------------------------------------------

    /**
     * Parses {@code message} whole, split into two buffers at every byte position, and one byte per buffer; all
     * must agree. Returns the outcome.
     */
    private static Outcome parseEveryWay(String message, boolean head) {
        byte[] bytes = message.getBytes(ISO_8859_1);
        Outcome whole = parse(List.of(Unpooled.wrappedBuffer(bytes)), head);
        for (int split = 0; split <= bytes.length; split++) {
            Outcome parted = parse(List.of(Unpooled.wrappedBuffer(bytes, 0, split),
                    Unpooled.wrappedBuffer(bytes, split, bytes.length - split)), head);
            assertThat(parted).as("split at byte %d of %s", split, printable(message)).isEqualTo(whole);
        }
        assertThat(parse(byteByByte(bytes), head)).as("one byte at a time: %s", printable(message)).isEqualTo(whole);
        return whole;
    }

    /**
     * Feeds the buffers in order until the response completes; the rest stay unread. When all were consumed
     * without completing, the peer is taken to close the connection.
     */
    private static Outcome parse(List<ByteBuf> pieces, boolean head) {
        ResponseParser parser = new ResponseParser(LIMIT);
        parser.begin(head);
        int status = NEED_MORE;
        StringBuilder unread = new StringBuilder();
        for (ByteBuf piece : pieces) {
            if (status == NEED_MORE) {
                status = parser.feed(piece);
                if (status == NEED_MORE) {
                    assertThat(piece.isReadable()).as("an incomplete response consumes every byte").isFalse();
                }
            }
            unread.append(piece.toString(ISO_8859_1));
        }
        if (status == NEED_MORE) {
            status = parser.closed();
        }
        return new Outcome(status, parser.bodyBytes(), parser.keepAlive(), unread.toString());
    }

    /** Every way of splitting {@code message} ends in a MalformedResponseException with exactly {@code expected}. */
    private static void assertMalformed(String message, String expected) {
        byte[] bytes = message.getBytes(ISO_8859_1);
        List<List<ByteBuf>> ways = new ArrayList<>();
        ways.add(List.of(Unpooled.wrappedBuffer(bytes)));
        for (int split = 0; split <= bytes.length; split++) {
            ways.add(List.of(Unpooled.wrappedBuffer(bytes, 0, split),
                    Unpooled.wrappedBuffer(bytes, split, bytes.length - split)));
        }
        ways.add(byteByByte(bytes));
        for (List<ByteBuf> way : ways) {
            assertThatThrownBy(() -> parse(way, false))
                    .as("%s in %d pieces", printable(message), way.size())
                    .isInstanceOf(MalformedResponseException.class)
                    .hasMessage(expected);
        }
    }

    private static List<ByteBuf> byteByByte(byte[] bytes) {
        List<ByteBuf> pieces = new ArrayList<>(bytes.length);
        for (int i = 0; i < bytes.length; i++) {
            pieces.add(Unpooled.wrappedBuffer(bytes, i, 1));
        }
        return pieces;
    }

    private static ByteBuf ascii(String s) {
        return Unpooled.wrappedBuffer(s.getBytes(US_ASCII));
    }

    private static String printable(String message) {
        return "'" + message.replace("\r", "\\r").replace("\n", "\\n") + "'";
    }

    private static DefaultFullHttpResponse fullResponse() {
        DefaultFullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                HttpResponseStatus.CREATED, Unpooled.wrappedBuffer(new byte[300]));
        HttpUtil.setContentLength(response, 300);
        response.headers().set("X-Request-Id", "r-1");
        return response;
    }

    private static Object[] chunkedResponseParts() {
        DefaultHttpResponse response = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        HttpUtil.setTransferEncodingChunked(response, true);
        DefaultLastHttpContent last = new DefaultLastHttpContent();
        last.trailingHeaders().set("X-Checksum", "1234");
        return new Object[] {
                response,
                new DefaultHttpContent(Unpooled.wrappedBuffer(new byte[1000])),
                new DefaultHttpContent(Unpooled.copiedBuffer("bc", US_ASCII)),
                last,
        };
    }

    /** The bytes Netty's HttpResponseEncoder writes for {@code messages}, as the buffers it produced. */
    private static List<ByteBuf> encode(Object... messages) {
        EmbeddedChannel channel = new EmbeddedChannel(new HttpResponseEncoder());
        assertThat(channel.writeOutbound(messages)).isTrue();
        List<ByteBuf> out = new ArrayList<>();
        for (ByteBuf buf = channel.readOutbound(); buf != null; buf = channel.readOutbound()) {
            out.add(buf);
        }
        assertThat(channel.finish()).isFalse();
        return out;
    }

    private static String concat(List<ByteBuf> buffers) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (ByteBuf buf : buffers) {
            byte[] copy = new byte[buf.readableBytes()];
            buf.readBytes(copy);
            bytes.writeBytes(copy);
            buf.release();
        }
        return bytes.toString(ISO_8859_1);
    }

    /** Feeds every buffer (all must be consumed), releasing each; the status once the last one completes. */
    private static int feedAll(ResponseParser parser, List<ByteBuf> buffers) {
        int status = NEED_MORE;
        for (ByteBuf buf : buffers) {
            assertThat(status).as("completed before the encoder's last buffer").isEqualTo(NEED_MORE);
            status = parser.feed(buf);
            assertThat(buf.isReadable()).isFalse();
            buf.release();
        }
        return status;
    }

    /** Reads the socket in 7-byte pieces (so real responses arrive split) until the response completes. */
    private static int readResponse(InputStream in, ResponseParser parser) throws IOException {
        byte[] piece = new byte[7];
        for (;;) {
            int n = in.read(piece);
            if (n < 0) {
                return parser.closed();
            }
            ByteBuf buf = Unpooled.wrappedBuffer(piece, 0, n);
            int status = parser.feed(buf);
            if (status != NEED_MORE) {
                assertThat(buf.isReadable()).as("no bytes beyond the response (no pipelining)").isFalse();
                return status;
            }
        }
    }
}
