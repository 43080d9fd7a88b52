package io.rigscope.model.wire;

import io.rigscope.model.topic.Topic;

/**
 * One generator's account of one scenario's second on {@code rig.ledger}; also the watermark.
 *
 * <p>{@code scheduled}, {@code sent} and {@code dropped} count requests whose intended start fell in
 * {@code sec}; {@code completed} counts requests whose end ({@code t2}) fell in {@code sec}. A generator
 * publishes the ledger for second S after every sample that ended in S. Since samples and ledger are on
 * different topics, a reader treats S as final for this generator once it holds the ledger for S and
 * {@code completed} samples ending in S.
 *
 * @param run series id
 * @param rep repeat number
 * @param src generator id
 * @param ts epoch µs when the ledger was written
 * @param scenario scenario name
 * @param sec the second, epoch seconds
 * @param scheduled requests whose intended start fell in this second
 * @param sent of those, requests actually sent
 * @param dropped of those, requests not sent because max in-flight was reached
 * @param completed requests that ended in this second (any outcome)
 * @param last true on the generator's final ledger for this scenario and repeat: nothing follows
 */
public record Ledger(String run, int rep, String src, long ts, String scenario, long sec, long scheduled, long sent,
                     long dropped, long completed, boolean last) implements WireRecord {

    public Ledger {
        Checks.header(run, rep, src, ts);
        Checks.nonBlank(scenario, "scenario");
        Checks.nonNegative(sec, "sec");
        Checks.nonNegative(scheduled, "scheduled");
        Checks.nonNegative(sent, "sent");
        Checks.nonNegative(dropped, "dropped");
        Checks.nonNegative(completed, "completed");
    }

    @Override
    public Topic topic() {
        return Topic.LEDGER;
    }
}
