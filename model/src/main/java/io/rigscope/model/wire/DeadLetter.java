package io.rigscope.model.wire;

import io.rigscope.model.topic.Topic;

/**
 * A record that could not be decoded, on {@code rig.dlq}, with why and where it came from.
 *
 * <p>{@code run} is the original key when there was one, else {@code unknown}.
 *
 * @param origin where the bytes came from: {@code topic/partition@offset}, {@code file:line}, ...
 * @param topicName the topic the payload was meant for
 * @param reason what is wrong, in words that name the field or position
 * @param payload the original bytes as UTF-8 text, or {@code base64:...} when they are not text
 */
public record DeadLetter(String run, int rep, String src, long ts, String origin, String topicName, String reason,
                         String payload) implements WireRecord {

    public DeadLetter {
        Checks.header(run, rep, src, ts);
        Checks.nonBlank(reason, "reason");
    }

    @Override
    public Topic topic() {
        return Topic.DLQ;
    }
}
