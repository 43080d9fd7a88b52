/**
 * k6's JSON output as samples: the byte path, the streaming parser, interning tables, tags and thresholds. Uses
 * analyzer.threshold and the model; used by evidence and follow. Threads: one reader per thread (its intern tables are
 * its own).
 */
package io.rigscope.importers.k6;
