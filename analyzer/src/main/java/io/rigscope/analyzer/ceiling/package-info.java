/**
 * A repeat's throughput ceiling (the rate where latency bends), as the decision carries it. Uses second and json.
 * Threads: an immutable value, built on the analysis thread, read on any.
 */
package io.rigscope.analyzer.ceiling;
