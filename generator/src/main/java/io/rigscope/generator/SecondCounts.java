package io.rigscope.generator;

import java.util.concurrent.atomic.LongAdder;

/** One scenario's counts for one second by intended start; written by the scenario's lanes (event loops), read by the sample batcher. */
final class SecondCounts {
    final LongAdder scheduled = new LongAdder();
    final LongAdder sent = new LongAdder();
    final LongAdder dropped = new LongAdder();
}
