package io.rigscope.model.codec;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.model.topic.Topic;
import io.rigscope.model.wire.ErrorKind;
import io.rigscope.model.wire.Ledger;
import io.rigscope.model.wire.Sample;
import io.rigscope.model.wire.SampleBatch;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class WireCodecTest {

    private final WireCodec codec = new WireCodec();

    private static SampleBatch batch() {
        return new SampleBatch("s1", 2, "gen-1", 1_700_000_000_000_000L, List.of(
                new Sample("ingest", 1_700_000_000_000_000L, 1_700_000_000_000_050L, 1_700_000_000_004_000L, 201,
                        ErrorKind.NONE, 10, 55, 1200),
                new Sample("ingest", 1_700_000_000_001_000L, 1_700_000_000_001_010L, 1_700_000_000_900_000L, 0,
                        ErrorKind.TIMEOUT, 10, 40, 1200)));
    }

    @Test
    void jsonAndSmileDecodeToTheSameRecord() {
        SampleBatch batch = batch();
        byte[] json = codec.encode(batch, WireCodec.Format.JSON);
        byte[] smile = codec.encode(batch, WireCodec.Format.SMILE);
        assertThat(WireCodec.isSmile(smile)).isTrue();
        assertThat(WireCodec.isSmile(json)).isFalse();
        assertThat(codec.decode(Topic.SAMPLES, "s1", json, "t")).isEqualTo(new Decoded.Ok(batch));
        assertThat(codec.decode(Topic.SAMPLES, "s1", smile, "t")).isEqualTo(new Decoded.Ok(batch));
        assertThat(smile.length).isLessThan(json.length);
    }

    @Test
    void errorKindTravelsAsItsLowerCaseCode() {
        String json = new String(codec.encode(batch()), StandardCharsets.UTF_8);
        assertThat(json).contains("\"err\":\"timeout\"").contains("\"err\":\"none\"");
    }

    @Test
    void malformedJsonIsADeadLetterNamingTheProblem() {
        Decoded d = codec.decode(Topic.LEDGER, "s1", "{\"run\":\"s1\",".getBytes(StandardCharsets.UTF_8), "rig.ledger/0@7");
        assertThat(d).isInstanceOf(Decoded.Failed.class);
        var letter = ((Decoded.Failed) d).deadLetter();
        assertThat(letter.reason()).startsWith("malformed JSON");
        assertThat(letter.origin()).isEqualTo("rig.ledger/0@7");
        assertThat(letter.topicName()).isEqualTo("rig.ledger");
        assertThat(letter.payload()).isEqualTo("{\"run\":\"s1\",");
        assertThat(letter.run()).isEqualTo("s1");
    }

    @Test
    void aRecordThatBreaksItsInvariantsIsADeadLetterSayingWhich() {
        Ledger ok = new Ledger("s1", 1, "gen-1", 5, "ingest", 10, 5, 5, 0, 5, false);
        String bad = new String(codec.encode(ok), StandardCharsets.UTF_8).replace("\"dropped\":0", "\"dropped\":-3");
        var d = codec.decode(Topic.LEDGER, "s1", bad.getBytes(StandardCharsets.UTF_8), "x");
        assertThat(((Decoded.Failed) d).deadLetter().reason()).contains("dropped must be >= 0, was -3");
    }

    @Test
    void aMissingRequiredFieldIsADeadLetter() {
        var d = codec.decode(Topic.SAMPLES, "s1", "{\"rep\":1,\"src\":\"g\",\"ts\":5,\"samples\":[]}"
                .getBytes(StandardCharsets.UTF_8), "x");
        assertThat(((Decoded.Failed) d).deadLetter().reason()).contains("run is missing");
    }

    @Test
    void aKeyThatDisagreesWithTheRunIsADeadLetter() {
        var d = codec.decode(Topic.SAMPLES, "other", codec.encode(batch()), "x");
        assertThat(((Decoded.Failed) d).deadLetter().reason()).contains("key 'other' differs");
    }

    @Test
    void binaryGarbageIsKeptAsBase64() {
        var d = codec.decode(Topic.SAMPLES, null, new byte[] {(byte) 0xff, (byte) 0xfe, 0, 1}, "x");
        var letter = ((Decoded.Failed) d).deadLetter();
        assertThat(letter.payload()).startsWith("base64:");
        assertThat(letter.run()).isEqualTo("unknown");
    }

    @Test
    void aWireLineRoundTrips() {
        String line = WireLine.of(codec, batch()).render(codec);
        assertThat(line).startsWith("{\"topic\":\"rig.samples\",\"key\":\"s1\",\"value\":{");
        assertThat(WireLine.parse(codec, line, "f:1")).isEqualTo(new Decoded.Ok(batch()));
    }

    @Test
    void aWireLineWithAnUnknownTopicIsADeadLetter() {
        var d = WireLine.parse(codec, "{\"topic\":\"rig.nope\",\"key\":\"s1\",\"value\":{}}", "f:3");
        assertThat(((Decoded.Failed) d).deadLetter().reason()).isEqualTo("unknown topic 'rig.nope'");
        assertThat(((Decoded.Failed) d).deadLetter().origin()).isEqualTo("f:3");
    }

    @Test
    void aWireLineWhoseValueBreaksItsInvariantsIsADeadLetterSayingWhichWithTheValueKept() {
        Ledger ok = new Ledger("s1", 1, "gen-1", 5, "ingest", 10, 5, 5, 0, 5, false);
        String line = WireLine.of(codec, ok).render(codec).replace("\"dropped\":0", "\"dropped\":-3");
        var letter = ((Decoded.Failed) WireLine.parse(codec, line, "f:9")).deadLetter();
        assertThat(letter.reason()).contains("dropped must be >= 0, was -3");
        assertThat(letter.origin()).isEqualTo("f:9");
        assertThat(letter.topicName()).isEqualTo("rig.ledger");
        assertThat(letter.payload()).contains("\"dropped\":-3");
    }

    @Test
    void aWireLineKeyedByAnotherRunIsADeadLetter() {
        String line = WireLine.of(codec, batch()).render(codec).replace("\"key\":\"s1\"", "\"key\":\"s2\"");
        var letter = ((Decoded.Failed) WireLine.parse(codec, line, "f:2")).deadLetter();
        assertThat(letter.reason()).isEqualTo("key 's2' differs from the record's run 's1'");
        assertThat(letter.run()).isEqualTo("s2");
    }
}
