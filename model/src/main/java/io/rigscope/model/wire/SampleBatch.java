package io.rigscope.model.wire;

import io.rigscope.model.topic.Topic;
import java.util.List;

/**
 * Finished requests on {@code rig.samples}, several to a record so that the wire carries one record per
 * batch rather than per request. A batch holds samples of one generator, in the order they ended.
 *
 * @param run series id
 * @param rep repeat number
 * @param src generator id
 * @param ts epoch µs when the batch was sealed
 * @param samples one or more samples
 */
public record SampleBatch(String run, int rep, String src, long ts, List<Sample> samples) implements WireRecord {

    public SampleBatch {
        Checks.header(run, rep, src, ts);
        if (samples == null || samples.isEmpty()) {
            throw new IllegalArgumentException("samples is missing or empty");
        }
        samples = List.copyOf(samples);
    }

    @Override
    public Topic topic() {
        return Topic.SAMPLES;
    }
}
