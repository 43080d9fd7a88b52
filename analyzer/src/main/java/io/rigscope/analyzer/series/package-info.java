/**
 * One series' analysis ({@code SeriesAnalysis}): routes records to repeats, closes seconds, judges repeats and makes
 * decisions, live provisional ones included. Uses repeat, attribution, decision, second, freeze, telemetry, config;
 * used by pipeline and api. Threads: owned by one analysis thread; {@code Progress} may be read from any.
 */
package io.rigscope.analyzer.series;
