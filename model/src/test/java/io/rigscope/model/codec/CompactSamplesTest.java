package io.rigscope.model.codec;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.model.topic.Topic;
import io.rigscope.model.wire.ErrorKind;
import io.rigscope.model.wire.Sample;
import io.rigscope.model.wire.SampleBatch;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class CompactSamplesTest {

    private final WireCodec codec = new WireCodec();
    private final SampleBatch batch = new SampleBatch("s-1", 2, "gen-1", 1_700_000_001_000_000L, List.of(
            new Sample("ingest", 1_700_000_000_100_000L, 1_700_000_000_100_500L, 1_700_000_000_102_500L, 201,
                    ErrorKind.NONE, 10, 55, 1800),
            new Sample("probe", 1_700_000_000_200_000L, 1_700_000_000_200_000L, 1_700_000_000_150_000L + 60_000_000L,
                    0, ErrorKind.TIMEOUT, 0, -3, 0),
            new Sample("ingest", 1_700_000_000_300_000L, 1_700_000_000_300_000L, 1_700_000_000_301_000L, 503,
                    ErrorKind.HTTP_5XX, 10, 40, 1800)));

    @Test
    void aBatchSurvivesTheCompactFormUnchanged() {
        byte[] bytes = codec.encode(batch, WireCodec.Format.COMPACT);

        Decoded d = codec.decode(Topic.SAMPLES, "s-1", bytes, "test");

        assertThat(d).isEqualTo(new Decoded.Ok(batch));
        assertThat(bytes.length).isLessThan(codec.encode(batch, WireCodec.Format.SMILE).length);
    }

    @Test
    void aFailedCheckSurvivesEveryFormWithItsStatusAndOrdinalsStayAsTheyWere() {
        SampleBatch checked = new SampleBatch("s-1", 0, "gen-1", 1_700_000_001_000_000L, List.of(
                new Sample("ingest", 1_700_000_000_100_000L, 1_700_000_000_100_500L, 1_700_000_000_102_500L, 200,
                        ErrorKind.CHECK, 1, 1, 90)));

        for (WireCodec.Format format : WireCodec.Format.values()) {
            assertThat(codec.decode(Topic.SAMPLES, "s-1", codec.encode(checked, format), "test"))
                    .as(format.name()).isEqualTo(new Decoded.Ok(checked));
        }
        assertThat(ErrorKind.CHECK.code()).isEqualTo("check");
        assertThat(ErrorKind.ofCode("check")).isEqualTo(ErrorKind.CHECK);
        // the compact form carries the ordinal: the older kinds keep theirs
        assertThat(ErrorKind.OTHER.ordinal()).isEqualTo(6);
        assertThat(ErrorKind.CHECK.ordinal()).isEqualTo(7);
        assertThat(checked.samples().get(0).failed()).isTrue();
    }

    @Test
    void aTruncatedCompactBatchIsADeadLetterNeverAnException() {
        byte[] bytes = codec.encode(batch, WireCodec.Format.COMPACT);

        Decoded d = codec.decode(Topic.SAMPLES, "s-1", Arrays.copyOf(bytes, bytes.length - 3), "rig.samples/0@7");

        assertThat(d).isInstanceOf(Decoded.Failed.class);
        assertThat(((Decoded.Failed) d).deadLetter().reason()).startsWith("invalid compact sample batch: truncated");
        assertThat(((Decoded.Failed) d).deadLetter().origin()).isEqualTo("rig.samples/0@7");
    }

    @Test
    void aCompactBatchOnAnotherTopicIsADeadLetter() {
        byte[] bytes = codec.encode(batch, WireCodec.Format.COMPACT);

        assertThat(codec.decode(Topic.LEDGER, "s-1", bytes, "x")).isInstanceOf(Decoded.Failed.class);
    }

    @Test
    void aCompactBatchWhoseKeyIsAnotherSeriesIsADeadLetter() {
        byte[] bytes = codec.encode(batch, WireCodec.Format.COMPACT);

        Decoded d = codec.decode(Topic.SAMPLES, "s-2", bytes, "x");

        assertThat(((Decoded.Failed) d).deadLetter().reason()).contains("differs from the record's run");
    }

    @Test
    void serverTimingSurvivesEveryFormAndABatchWithoutItKeepsVersionOneBytes() {
        SampleBatch timed = new SampleBatch("s-1", 1, "gen-1", 1_700_000_001_000_000L, List.of(
                new Sample("ingest", 1_700_000_000_100_000L, 1_700_000_000_100_500L, 1_700_000_000_102_500L, 201,
                        ErrorKind.NONE, 10, 55, 1800, io.rigscope.model.wire.ServerTiming.of(
                                new String[] {"pool", "db", "app"}, new long[] {120, 3400, 250})),
                new Sample("ingest", 1_700_000_000_200_000L, 1_700_000_000_200_000L, 1_700_000_000_203_000L, 201,
                        ErrorKind.NONE, 10, 40, 1800)));

        for (WireCodec.Format format : WireCodec.Format.values()) {
            byte[] bytes = codec.encode(timed, format);
            assertThat(codec.decode(Topic.SAMPLES, "s-1", bytes, "test")).isEqualTo(new Decoded.Ok(timed));
        }
        assertThat(codec.encode(timed, WireCodec.Format.COMPACT)[3]).isEqualTo((byte) 2);
        assertThat(codec.encode(batch, WireCodec.Format.COMPACT)[3]).isEqualTo((byte) 1);
        String json = new String(codec.encode(timed, WireCodec.Format.JSON), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(json).contains("\"server_timing_us\":{\"pool\":120,\"db\":3400,\"app\":250}");
        assertThat(json.indexOf("server_timing_us")).isEqualTo(json.lastIndexOf("server_timing_us"));
        assertThat(new String(codec.encode(batch, WireCodec.Format.JSON), java.nio.charset.StandardCharsets.UTF_8))
                .doesNotContain("server_timing");
    }
}
