package io.rigscope.rig.selftest;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rigscope.analyzer.api.Analyzer;
import io.rigscope.analyzer.decision.Decision;
import io.rigscope.analyzer.synthetic.SyntheticSeries;
import io.rigscope.analyzer.pipeline.AnalyzerInput;
import io.rigscope.analyzer.report.ReportFiles;
import io.rigscope.analyzer.decision.SeriesReport;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.model.topic.Topic;
import io.rigscope.model.wire.DeadLetter;
import io.rigscope.model.wire.WireExamples;
import io.rigscope.model.wire.WireRecord;
import io.rigscope.wire.DeadLetterSink;
import io.rigscope.wire.WirePublisher;
import io.rigscope.wire.WireSource;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The malformed-records guarantee: a series published with {@code count} malformed values spread over every topic
 * the analyzer reads ({@link AnalyzerInput#TOPICS}) and interleaved with its good records is analysed without a
 * crash; every malformed value lands on {@code rig.dlq} once, with its reason and its origin
 * ({@code topic/partition@offset}); and the series report is byte-identical to the report of the same records
 * without them.
 *
 * <p>The malformed values are of {@link Kind}'s sorts, in turn: text that is not JSON, cut-off JSON, JSON null,
 * a JSON array, a field of the wrong type, a header field missing, a value out of range, a record whose run
 * differs from its key, bytes that are not UTF-8, an empty value, a Smile header over garbage and a compact
 * sample batch header over garbage (on {@code rig.samples} a broken batch, elsewhere one on the wrong topic).
 * All are keyed by the series, so the analyzer of that series reads each of them.
 */
final class MalformedRecords {

    /** The sorts of malformed value planted, in turn. */
    public enum Kind {
        NOT_JSON, CUT_OFF_JSON, JSON_NULL, JSON_ARRAY, WRONG_TYPE, MISSING_HEADER, OUT_OF_RANGE, RUN_NOT_KEY,
        NOT_UTF8, EMPTY, SMILE_GARBAGE, COMPACT_GARBAGE
    }

    /**
     * What the scenario found.
     *
     * @param planted malformed values published
     * @param inDlq dead letters of the series on {@code rig.dlq} after the analysis
     * @param withOrigin of those, the ones whose origin names a topic the analyzer reads, a partition and an
     *        offset, matching the dead letter's own topic name, each origin once
     * @param withReason of those, the ones with a non-blank reason
     * @param perTopic planted values per topic
     * @param dlqPerTopic dead letters per topic
     * @param crashes analyses that ended in an error (0 or 1)
     * @param reportIdentical the report equals, byte for byte, the one of the same records without the malformed ones
     * @param verdict the series verdict with the malformed values (null after a crash)
     * @param cleanVerdict the series verdict without them
     * @param sampleReason one dead letter's reason, for the console
     */
    public record Result(long planted, long inDlq, long withOrigin, long withReason, Map<Topic, Long> perTopic,
                         Map<Topic, Long> dlqPerTopic, int crashes, boolean reportIdentical, String verdict,
                         String cleanVerdict, String sampleReason) {
        public Result {
            perTopic = Map.copyOf(perTopic);
            dlqPerTopic = Map.copyOf(dlqPerTopic);
        }

        /** Every planted value in the DLQ once, with origin and reason; no crash; the report unchanged. */
        public boolean holds() {
            return crashes == 0 && inDlq == planted && withOrigin == planted && withReason == planted
                    && perTopic.equals(dlqPerTopic) && reportIdentical;
        }
    }

    private static final Pattern ORIGIN = Pattern.compile("(rig\\.[a-z]+)/(\\d+)@(\\d+)");
    private static final Duration ANALYSIS_TIMEOUT = Duration.ofMinutes(2);

    private final String bootstrap;
    private final WireCodec codec = new WireCodec();

    /** @param bootstrap the broker, with rigscope's topics in place */
    public MalformedRecords(String bootstrap) {
        this.bootstrap = Objects.requireNonNull(bootstrap, "bootstrap");
    }

    /**
     * Publishes a synthetic series (two 10-s repeats at 200 req/s) with {@code count} malformed values, analyses it
     * from the topics, and checks the DLQ and the report.
     *
     * @param series a series id not used on the broker before
     */
    public Result run(String series, int count) {
        if (count < 1) {
            throw new IllegalArgumentException("count must be >= 1, was " + count);
        }
        List<WireRecord> records = new ArrayList<>();
        SyntheticSeries.emit(SyntheticSeries.Plan.of(series, 2, 10, 200), records::add);
        SeriesReport clean = new SeriesRecords(records).report(series);
        String cleanReport = new String(ReportFiles.json(clean), StandardCharsets.UTF_8);

        List<Topic> topics = List.copyOf(AnalyzerInput.TOPICS);
        Map<Topic, Long> perTopic = new EnumMap<>(Topic.class);
        try (WirePublisher publisher = new WirePublisher(bootstrap, codec,
                WirePublisher.Options.defaults().withClientId("rigscope-selftest"))) {
            // malformed values spread evenly through the good records, over every input topic in turn
            int every = Math.max(1, records.size() / count);
            int planted = 0;
            for (int i = 0; i < records.size(); i++) {
                publisher.publish(records.get(i));
                while (planted < count && (i % every == 0 || i == records.size() - 1)) {
                    Topic topic = topics.get(planted % topics.size());
                    Kind kind = Kind.values()[(planted / topics.size()) % Kind.values().length];
                    publisher.publishRaw(topic.topicName(), series, malformed(topic, kind, series, planted));
                    perTopic.merge(topic, 1L, Long::sum);
                    planted++;
                    if (i != records.size() - 1) {
                        break;
                    }
                }
            }
            publisher.flush();
            if (publisher.failed() > 0) {
                throw new IllegalStateException("the broker refused " + publisher.failed() + " record(s)");
            }
        }

        int crashes = 0;
        String report = null;
        String verdict = null;
        try (WirePublisher dlqPublisher = new WirePublisher(bootstrap, codec,
                WirePublisher.Options.defaults().withClientId("rigscope-selftest-dlq"))) {
            try {
                // analysed twice, as a live analyzer and a later `analyze --replay` would: each malformed record
                // must reach rig.dlq once, not once per analysis
                for (int pass = 0; pass < 2; pass++) {
                    DeadLetterSink dlq = DeadLetterSink.once(dlqPublisher, new WireSource(bootstrap, codec), series,
                            ANALYSIS_TIMEOUT);
                    Decision last = Analyzer.forSeries(series)
                            .replay(AnalyzerInput.fromKafka(new WireSource(bootstrap, codec), series, false, dlq))
                            .blockLast(ANALYSIS_TIMEOUT);
                    dlqPublisher.flush();
                    if (last instanceof Decision.Series s) {
                        report = new String(ReportFiles.json(s.report()), StandardCharsets.UTF_8);
                        verdict = s.report().verdict().toString();
                    } else {
                        crashes = 1;
                    }
                }
            } catch (RuntimeException e) {
                crashes = 1;
            }
            dlqPublisher.flush();
        }

        List<DeadLetter> letters = new WireSource(bootstrap, codec)
                .records(new WireSource.Spec(Set.of(Topic.DLQ), series, true, false), f -> { })
                .filter(r -> r instanceof DeadLetter)
                .map(r -> (DeadLetter) r)
                .collectList()
                .block(ANALYSIS_TIMEOUT);
        Objects.requireNonNull(letters, "dead letters");
        long withOrigin = 0;
        long withReason = 0;
        Set<String> origins = new HashSet<>();
        Map<Topic, Long> dlqPerTopic = new EnumMap<>(Topic.class);
        for (DeadLetter letter : letters) {
            Matcher m = ORIGIN.matcher(letter.origin());
            if (m.matches() && m.group(1).equals(letter.topicName())
                    && Topic.byName(m.group(1)).filter(AnalyzerInput.TOPICS::contains).isPresent()
                    && origins.add(letter.origin())) {
                withOrigin++;
            }
            if (!letter.reason().isBlank()) {
                withReason++;
            }
            Topic.byName(letter.topicName()).ifPresent(t -> dlqPerTopic.merge(t, 1L, Long::sum));
        }
        return new Result(count, letters.size(), withOrigin, withReason, perTopic, dlqPerTopic, crashes,
                cleanReport.equals(report), verdict, clean.verdict().toString(),
                letters.isEmpty() ? null : letters.get(letters.size() / 2).reason());
    }

    /** One malformed value of {@code kind} for {@code topic}, keyed by {@code series}. */
    byte[] malformed(Topic topic, Kind kind, String series, int n) {
        ObjectNode example = example(topic, series);
        return switch (kind) {
            case NOT_JSON -> ("malformed value " + n + " is not JSON").getBytes(StandardCharsets.UTF_8);
            case CUT_OFF_JSON -> {
                byte[] whole = json(example);
                yield Arrays.copyOf(whole, whole.length / 2);
            }
            case JSON_NULL -> "null".getBytes(StandardCharsets.UTF_8);
            case JSON_ARRAY -> ("[" + n + ", \"" + series + "\"]").getBytes(StandardCharsets.UTF_8);
            case WRONG_TYPE -> json(example.put("ts", "yesterday at " + n));
            case MISSING_HEADER -> {
                example.remove("src");
                yield json(example);
            }
            case OUT_OF_RANGE -> json(example.put("rep", -1 - n));
            case RUN_NOT_KEY -> json(example.put("run", series + "-other-" + n));
            case NOT_UTF8 -> new byte[] {(byte) 0xff, (byte) 0xfe, (byte) 0xc3, (byte) 0x28, (byte) (n & 0x7f)};
            case EMPTY -> new byte[0];
            case SMILE_GARBAGE -> new byte[] {':', ')', '\n', 0x03, (byte) 0xfa, (byte) 0x80, (byte) (n & 0xff),
                    (byte) 0xf8};
            case COMPACT_GARBAGE -> new byte[] {'R', 'S', 'B', 1, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff,
                    (byte) (n & 0xff)};
        };
    }

    /** The documented example record of {@code topic}, moved to {@code series}, as a JSON tree. */
    private ObjectNode example(Topic topic, String series) {
        WireRecord record = WireExamples.all().stream().filter(r -> r.topic() == topic).findFirst()
                .orElseThrow(() -> new IllegalStateException("no example record for " + topic.topicName()));
        return codec.toTree(record).put("run", series);
    }

    private byte[] json(ObjectNode tree) {
        try {
            return codec.json().writeValueAsBytes(tree);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
