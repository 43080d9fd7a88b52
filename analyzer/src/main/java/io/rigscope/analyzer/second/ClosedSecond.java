package io.rigscope.analyzer.second;

import io.rigscope.analyzer.decision.SecondStats;
import java.util.Map;

/**
 * A closed second: its figures and its histograms as compressed bytes, so a repeat keeps every second for
 * drift and windows at a few hundred bytes each.
 */
record ClosedSecond(SecondStats stats, byte[] serviceUs, byte[] responseUs, Map<String, Long> seenByGenerator) {
    ClosedSecond {
        seenByGenerator = Map.copyOf(seenByGenerator);
    }
}
