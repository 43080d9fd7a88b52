/**
 * An episode (a run of slow seconds) and what attribution gives it: its cause, confidence, evidence and lever. Uses
 * json. Threads: immutable values, built on the analysis thread, read on any.
 */
package io.rigscope.analyzer.episode;
