package io.rigscope.analyzer.api;

import io.rigscope.analyzer.decision.DecisionCodec;
import io.rigscope.analyzer.decision.Decision;
import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.analyzer.decision.GateResult;
import io.rigscope.analyzer.pipeline.AnalyzerInput;
import io.rigscope.analyzer.decision.Abort;
import io.rigscope.model.codec.Decoded;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.model.topic.Topic;
import io.rigscope.model.wire.Verdict;
import io.rigscope.model.wire.VerdictFacts;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The verdict bodies are written by the analyzer's decisions (their JSON views) and read elsewhere through the
 * model's {@link VerdictFacts}: every decision of two recorded series, published as its verdict and decoded from
 * the wire's bytes, reads back as the facts the decision holds. A key renamed on either side fails here.
 */
class VerdictFactsTest {

    private static final WireCodec CODEC = new WireCodec();

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {"demo-quick | demo-20261130-184316 | SECOND REPEAT SERIES",
        "hot-row | demo-20261130-184410 | SECOND FREEZE EPISODE REPEAT SERIES"})
    void everyDecisionReadsBackAsItsFactsAfterTheWire(String name, String series, String kinds) throws IOException {
        Path file = dir.resolve(name + ".jsonl.gz");
        try (InputStream in = Objects.requireNonNull(getClass().getResourceAsStream("/recorded/" + name
                + ".jsonl.gz"), name)) {
            Files.copy(in, file);
        }
        List<Decision> decisions = Analyzer.forSeries(series)
                .replay(AnalyzerInput.fromWireFile(file, CODEC, f -> {
                    throw new AssertionError(f.deadLetter().reason());
                }))
                .collectList().block(Duration.ofSeconds(60));
        assertThat(decisions).isNotNull();
        Set<Verdict.Kind> seen = EnumSet.noneOf(Verdict.Kind.class);
        for (Decision d : decisions) {
            VerdictFacts facts = overTheWire(DecisionCodec.toVerdict(d)).facts();
            seen.add(d.kind());
            agree(d, facts);
        }
        for (String k : kinds.split(" ")) {
            assertThat(seen).as("kinds decided").contains(Verdict.Kind.valueOf(k));
        }
    }

    @Test
    void anAbortReadsBackAsItsThresholdValueAndLimit() {
        Abort abort = new Abort("p(99)<500", 812.5, 500, 20_000, 0, 60_000, 20);
        VerdictFacts facts = overTheWire(DecisionCodec.toVerdict(
                new Decision.Stop("s", 1, "ingest", 1_764_000_000_000_000L, abort))).facts();
        assertThat(facts).isEqualTo(new VerdictFacts.Abort(Abort.BY, "p(99)<500", 812.5, 500.0, 20_000L, 0L, 60_000L,
                20L));
        // what the runner hands the generator (the REPEAT_END's stopped) is what the verdict says, key for key
        assertThat(abort.facts()).isEqualTo(facts);
        assertThat(abort.facts().toData()).containsExactlyEntriesOf(DecisionCodec.body(
                new Decision.Stop("s", 1, "ingest", 1_764_000_000_000_000L, abort)));
        assertThat(Abort.of(abort.facts())).isEqualTo(abort);
    }

    @Test
    void aBodyMissingItsKeysReadsAsNullsNotAnError() {
        Verdict v = new Verdict("s", 1, "analyzer", 1L, Verdict.Kind.EPISODE, "ingest", Map.of("start", "soon"));
        assertThat(v.facts()).isEqualTo(new VerdictFacts.Episode(null, null, null, null, false));
    }

    private static void agree(Decision d, VerdictFacts facts) {
        if (d instanceof Decision.Second s) {
            assertThat(facts).isEqualTo(new VerdictFacts.Second(s.second().sec(), s.second().exact(),
                    s.provisional()));
        } else if (d instanceof Decision.Freeze f) {
            assertThat(facts).isEqualTo(new VerdictFacts.Freeze(f.second().sec(), f.rule()));
        } else if (d instanceof Decision.EpisodeFound e) {
            assertThat(facts).isEqualTo(new VerdictFacts.Episode(e.episode().startSec(), e.episode().endSec(),
                    e.episode().cause().code(), e.episode().confidence().code(), e.provisional()));
        } else if (d instanceof Decision.Repeat r) {
            Map<String, Boolean> gates = new LinkedHashMap<>();
            for (Map.Entry<String, GateResult> g : r.summary().gates().entrySet()) {
                gates.put(g.getKey(), g.getValue().pass());
            }
            assertThat(facts).isEqualTo(new VerdictFacts.Repeat(r.summary().kind().code(), r.summary().pass(),
                    gates));
        } else if (d instanceof Decision.Series s) {
            assertThat(facts).isEqualTo(new VerdictFacts.Series(s.report().verdict().name(),
                    s.report().headline(), (long) s.report().passed(), (long) s.report().total()));
        } else {
            assertThat(facts).isInstanceOf(VerdictFacts.Unread.class);
        }
    }

    /** The verdict as a consumer of rig.verdicts gets it: encoded to the wire's bytes and decoded. */
    private static Verdict overTheWire(Verdict v) {
        Decoded decoded = CODEC.decode(Topic.VERDICTS, v.run(), CODEC.encode(v), "test");
        assertThat(decoded).isInstanceOf(Decoded.Ok.class);
        return (Verdict) ((Decoded.Ok) decoded).record();
    }
}
