/**
 * The analyzer's settings (gates, windows, attribution thresholds) with their defaults and the keys a command may set.
 * Uses threshold. Threads: immutable values, read on any thread.
 */
package io.rigscope.analyzer.config;
