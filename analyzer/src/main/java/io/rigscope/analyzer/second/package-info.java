/**
 * Per-second statistics: open and closed seconds, their HDR histograms, the generators' ledgers, time watermarks,
 * server timing, and {@code SecondStats}. Uses freeze and json; used by the judges above. Threads: mutable, one owner
 * (the analysis thread); closed seconds are immutable.
 */
package io.rigscope.analyzer.second;
