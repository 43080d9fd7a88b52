package io.rigscope.model.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rigscope.model.topic.Topic;
import io.rigscope.model.wire.WireRecord;
import java.util.Objects;

/**
 * One line of a wire file ({@code --out FILE.jsonl}): {@code {"topic": ..., "key": ..., "value": {...}}}.
 * The value is always JSON in the file, whatever format travelled on Kafka.
 */
public record WireLine(String topic, String key, JsonNode value) {

    public WireLine {
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(value, "value");
    }

    /** The wire line of a record. */
    public static WireLine of(WireCodec codec, WireRecord record) {
        ObjectNode tree = codec.toTree(record);
        return new WireLine(record.topic().topicName(), record.run(), tree);
    }

    /** Renders the line as one line of JSON, no trailing newline. */
    public String render(WireCodec codec) {
        ObjectNode line = codec.json().createObjectNode();
        line.put("topic", topic);
        line.put("key", key);
        line.set("value", value);
        try {
            return codec.json().writeValueAsString(line);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Parses one wire-file line and decodes its value. A line that is not JSON, names an unknown topic or
     * carries an invalid value yields {@link Decoded.Failed}.
     *
     * @param origin where the line came from, e.g. {@code out.jsonl:17}
     */
    public static Decoded parse(WireCodec codec, String text, String origin) {
        JsonNode line;
        try {
            line = codec.json().readTree(text);
        } catch (Exception e) {
            return failedLine(text, origin, "malformed wire line: " + WireCodec.reason(e));
        }
        if (line == null || !line.isObject()) {
            return failedLine(text, origin, "wire line is not a JSON object");
        }
        JsonNode topicNode = line.get("topic");
        if (topicNode == null || !topicNode.isTextual()) {
            return failedLine(text, origin, "wire line has no \"topic\"");
        }
        var topic = Topic.byName(topicNode.asText());
        if (topic.isEmpty()) {
            return failedLine(text, origin, "unknown topic '" + topicNode.asText() + "'");
        }
        JsonNode value = line.get("value");
        if (value == null || !value.isObject()) {
            return failedLine(text, origin, "wire line has no \"value\" object");
        }
        String key = line.hasNonNull("key") ? line.get("key").asText() : null;
        return codec.decode(topic.get(), key, value, origin);
    }

    private static Decoded failedLine(String text, String origin, String reason) {
        return WireCodec.failed("wirefile", "unknown", null, origin, reason, text);
    }
}
