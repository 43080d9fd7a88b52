package io.rigscope.model.codec;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.smile.SmileFactory;
import com.fasterxml.jackson.dataformat.smile.databind.SmileMapper;
import io.rigscope.model.topic.Topic;
import io.rigscope.model.wire.Canary;
import io.rigscope.model.wire.CloudWatchPoint;
import io.rigscope.model.wire.DbSample;
import io.rigscope.model.wire.DeadLetter;
import io.rigscope.model.wire.Health;
import io.rigscope.model.wire.Ledger;
import io.rigscope.model.wire.Marker;
import io.rigscope.model.wire.OsMetrics;
import io.rigscope.model.wire.PgLogEvent;
import io.rigscope.model.wire.ProcessMetrics;
import io.rigscope.model.wire.SampleBatch;
import io.rigscope.model.wire.Verdict;
import io.rigscope.model.wire.Vmstat;
import io.rigscope.model.wire.Waits;
import io.rigscope.model.wire.WireRecord;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Encodes and decodes wire records. Values are JSON, Smile (Jackson's binary JSON) or, for sample batches,
 * rigscope's compact binary form, where the encoder was asked for it; the decoder tells them apart by their
 * first bytes (Smile's {@code :)\n}, compact's {@code RSB\1}), so a reader never needs to know which one a
 * producer chose.
 *
 * <p>In the untyped maps of {@code Marker.data} and {@code Verdict.body}, whole numbers decode as {@code Long}
 * and others as {@code Double}; producers should put those types in, so a record equals its decoded copy.
 *
 * <p>Decoding never throws: a payload that is not a valid record of its topic yields a
 * {@link Decoded.Failed} carrying a {@link DeadLetter} with the reason and the origin.
 *
 * <p>Thread-safe; share one instance.
 */
public final class WireCodec {

    /**
     * The value format a producer writes. {@link #COMPACT} is rigscope's binary form of a
     * {@link io.rigscope.model.wire.SampleBatch} (see {@code CompactSamples}); other records asked for in
     * COMPACT are written as Smile.
     */
    public enum Format {
        JSON, SMILE, COMPACT
    }

    private final ObjectMapper json;
    private final ObjectMapper smile;

    public WireCodec() {
        this.json = configure(JsonMapper.builder().build());
        this.smile = configure(new SmileMapper(SmileFactory.builder().build()));
    }

    private static ObjectMapper configure(ObjectMapper mapper) {
        mapper.configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
        mapper.configure(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES, true);
        // untyped maps (marker data, verdict bodies) hold whole numbers as Long, whatever their size
        mapper.configure(DeserializationFeature.USE_LONG_FOR_INTS, true);
        mapper.configure(DeserializationFeature.FAIL_ON_MISSING_CREATOR_PROPERTIES, false);
        mapper.configure(SerializationFeature.FAIL_ON_EMPTY_BEANS, false);
        return mapper;
    }

    /** The JSON mapper, configured as the wire expects (for tools that write wire JSON by hand). */
    public ObjectMapper json() {
        return json;
    }

    /** Encodes a record as JSON. */
    public byte[] encode(WireRecord record) {
        return encode(record, Format.JSON);
    }

    /** Encodes a record in the given format. */
    public byte[] encode(WireRecord record, Format format) {
        Objects.requireNonNull(record, "record");
        if (format == Format.COMPACT && record instanceof io.rigscope.model.wire.SampleBatch batch) {
            return CompactSamples.encode(batch);
        }
        try {
            return (format == Format.JSON ? json : smile).writeValueAsBytes(record);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot encode " + record.getClass().getSimpleName(), e);
        }
    }

    /** A record as a JSON tree (for the wire file and for tools). */
    public ObjectNode toTree(WireRecord record) {
        return json.valueToTree(record);
    }

    /**
     * Decodes one value of a topic.
     *
     * @param topic the topic the value was read from
     * @param key the record key, or null
     * @param value the raw value: JSON, Smile, or a compact sample batch
     * @param origin where the bytes came from, for the dead letter (e.g. {@code rig.samples/2@1234})
     */
    public Decoded decode(Topic topic, String key, byte[] value, String origin) {
        Objects.requireNonNull(topic, "topic");
        if (value == null || value.length == 0) {
            return failed(topic, key, value, origin, "empty value");
        }
        try {
            WireRecord record;
            if (CompactSamples.isCompact(value)) {
                if (topic != Topic.SAMPLES) {
                    return failed(topic, key, value, origin, "a compact sample batch on " + topic.topicName());
                }
                record = CompactSamples.decode(value);
            } else {
                record = (isSmile(value) ? smile : json).readValue(value, recordType(topic));
            }
            return accepted(topic, key, record, origin, () -> value);
        } catch (IOException | RuntimeException e) {
            return failed(topic, key, value, origin, CompactSamples.isCompact(value)
                    ? "invalid compact sample batch: " + e.getMessage() : reason(e));
        }
    }

    /** Decodes a JSON tree (one wire-file value) as a record of the topic, without writing it out again. */
    public Decoded decode(Topic topic, String key, JsonNode value, String origin) {
        Objects.requireNonNull(topic, "topic");
        Supplier<byte[]> payload = () -> {
            try {
                return json.writeValueAsBytes(value);
            } catch (JsonProcessingException e) {
                throw new UncheckedIOException(e);
            }
        };
        try {
            return accepted(topic, key, json.treeToValue(value, recordType(topic)), origin, payload);
        } catch (IOException | RuntimeException e) {
            return failed(topic, key, payload.get(), origin, reason(e));
        }
    }

    /** The checks every decoded value passes: not null, and keyed by its own run. */
    private Decoded accepted(Topic topic, String key, WireRecord record, String origin, Supplier<byte[]> payload) {
        if (record == null) {
            return failed(topic, key, payload.get(), origin, "value is JSON null");
        }
        if (key != null && !key.equals(record.run())) {
            return failed(topic, key, payload.get(), origin,
                    "key '" + key + "' differs from the record's run '" + record.run() + "'");
        }
        return new Decoded.Ok(record);
    }

    /**
     * The record type every value on this topic decodes to. A switch over every topic, so a new topic does not
     * compile until it names its record type here.
     */
    public static Class<? extends WireRecord> recordType(Topic topic) {
        return switch (topic) {
            case MARKERS -> Marker.class;
            case SAMPLES -> SampleBatch.class;
            case LEDGER -> Ledger.class;
            case HEALTH -> Health.class;
            case VMSTAT -> Vmstat.class;
            case OS -> OsMetrics.class;
            case WAITS -> Waits.class;
            case DB -> DbSample.class;
            case PGLOG -> PgLogEvent.class;
            case CLOUDWATCH -> CloudWatchPoint.class;
            case CANARY -> Canary.class;
            case VERDICTS -> Verdict.class;
            case DLQ -> DeadLetter.class;
            case PROCESS -> ProcessMetrics.class;
        };
    }

    /** True when the value carries Smile's header. */
    public static boolean isSmile(byte[] value) {
        return value.length >= 3 && value[0] == ':' && value[1] == ')' && value[2] == '\n';
    }

    private Decoded failed(Topic topic, String key, byte[] value, String origin, String reason) {
        return failed("codec", topic.topicName(), key, origin, reason, payloadText(value));
    }

    /** A dead letter stamped now; {@code run} is the key, or {@code unknown} without one. */
    static Decoded.Failed failed(String src, String topicName, String key, String origin, String reason,
                                 String payload) {
        String run = key == null || key.isBlank() ? "unknown" : key;
        long nowUs = Math.max(1, System.currentTimeMillis() * 1000L);
        return new Decoded.Failed(new DeadLetter(run, 0, src, nowUs, origin == null ? "unknown" : origin, topicName,
                reason, payload));
    }

    /** Jackson's message without the source dump, naming the field path where it has one. */
    static String reason(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String path = "";
        if (e instanceof JsonMappingException mapping && !mapping.getPath().isEmpty()) {
            path = " at " + mapping.getPathReference();
        }
        String message = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        int sourceAt = message.indexOf("\n at [Source");
        if (sourceAt >= 0) {
            message = message.substring(0, sourceAt);
        }
        return (e instanceof JsonProcessingException && root == e ? "malformed JSON: " : "invalid record: ")
                + message.strip() + path;
    }

    static String payloadText(byte[] value) {
        if (value == null) {
            return "";
        }
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(value)).toString();
        } catch (CharacterCodingException e) {
            return "base64:" + Base64.getEncoder().encodeToString(value);
        }
    }
}
