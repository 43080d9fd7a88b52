/**
 * Per-second statistics: open and closed seconds, their HDR histograms, the generators' ledgers, time watermarks,
 * server timing; the values it fills ({@code SecondStats}, {@code SecondHistogram}, the server-timing figures) are
 * decision's. Uses freeze and decision; used by the judges above. Threads: mutable, one owner
 * (the analysis thread); closed seconds are immutable.
 */
package io.rigscope.analyzer.second;
