package io.rigscope.model.codec;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.model.topic.Topic;
import io.rigscope.model.wire.Canary;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** rig.canary gained its run-queue fields; records from older canaries must still read and write as before. */
class CanaryWireTest {

    private static final String OLD = "{\"run\":\"cal-clean-20261130-193235\",\"rep\":1,\"src\":\"canary@local\","
            + "\"ts\":1796067163272819,\"path\":\"/tmp/rigscope-pg-12857589308169983487/.rigscope-canary-4394\","
            + "\"fsyncs\":141,\"fsyncMaxUs\":102194,\"fsyncP99Us\":67906,\"stalledIntervals\":73}";

    private final WireCodec codec = new WireCodec();

    @Test
    void anOlderCanarysSecondDecodesWithNothingKnownOfItsRunQueueAndEncodesToTheSameBytes() {
        Canary c = decode(OLD);
        assertThat(c.fsyncMaxUs()).isEqualTo(102_194);
        assertThat(c.runqSource()).isNull();
        assertThat(c.runqMeasured()).isFalse();
        assertThat(c.fsyncMaxDiskUs()).isNull();
        assertThat(c.cpus()).isNull();
        assertThat(new String(codec.encode(c), StandardCharsets.UTF_8)).isEqualTo(OLD);
        assertThat(codec.decode(Topic.CANARY, null, codec.encode(c, WireCodec.Format.SMILE), "t"))
                .isEqualTo(new Decoded.Ok(c));
    }

    @Test
    void aMeasuredSecondTravelsWithItsDisksShare() {
        Canary c = new Canary("s1", 1, "canary@h", 5, "/d/.rigscope-canary-1", 40, 340_000, 330_000, 120,
                Canary.RUNQ_SCHEDSTAT, 322_000L, 21_000L, 9_000L, 610_000L, 2);
        String json = new String(codec.encode(c), StandardCharsets.UTF_8);
        assertThat(json).endsWith("\"stalledIntervals\":120,\"runqSource\":\"schedstat\",\"fsyncMaxRunqUs\":322000,"
                + "\"fsyncMaxDiskUs\":21000,\"fsyncP99DiskUs\":9000,\"runqUs\":610000,\"cpus\":2}");
        assertThat(decode(json)).isEqualTo(c);
        assertThat(codec.decode(Topic.CANARY, "s1", codec.encode(c, WireCodec.Format.SMILE), "t"))
                .isEqualTo(new Decoded.Ok(c));
    }

    @Test
    void anUnmeasuredSecondSaysSoAndWritesNoRunQueueFigure() {
        Canary c = new Canary("s1", 1, "canary@h", 5, "/d/c", 200, 900, 700, 0, Canary.RUNQ_UNAVAILABLE, null, null,
                null, null, 2);
        assertThat(new String(codec.encode(c), StandardCharsets.UTF_8))
                .endsWith("\"stalledIntervals\":0,\"runqSource\":\"unavailable\",\"cpus\":2}");
    }

    @Test
    void aSecondClaimingSchedstatWithoutItsFiguresIsADeadLetter() {
        String bad = OLD.replace("}", ",\"runqSource\":\"schedstat\"}");
        var d = codec.decode(Topic.CANARY, "cal-clean-20261130-193235", bad.getBytes(StandardCharsets.UTF_8), "x");
        assertThat(d).isInstanceOf(Decoded.Failed.class);
        assertThat(((Decoded.Failed) d).deadLetter().reason()).contains("measured by schedstat needs");
    }

    private Canary decode(String json) {
        Decoded d = codec.decode(Topic.CANARY, null, json.getBytes(StandardCharsets.UTF_8), "t");
        assertThat(d).isInstanceOf(Decoded.Ok.class);
        return (Canary) ((Decoded.Ok) d).record();
    }
}
