/**
 * Imports an evidence directory (CloudWatch, Enhanced Monitoring, Performance Insights, Postgres log, vmstat, wire
 * files, k6 output) as wire records, and rescans it. Uses the collectors' parsers, k6 and the model. Threads: runs on
 * the command's thread; its progress may be read from another.
 */
package io.rigscope.importers.evidence;
