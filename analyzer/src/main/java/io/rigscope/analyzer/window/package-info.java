/**
 * A repeat's time windows (buckets) and their latency, as decisions and reports show them. Uses second and json.
 * Threads: immutable values, read on any thread.
 */
package io.rigscope.analyzer.window;
