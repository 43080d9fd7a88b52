/**
 * Follows a k6 output file while k6 writes it and publishes its samples live. Uses k6, analyzer.threshold, the wire
 * and the model. Threads: one reader thread per followed file.
 */
package io.rigscope.importers.k6.follow;
