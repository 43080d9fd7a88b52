/**
 * The k6 importer's benchmark ({@code rigscope bench import-k6}): a synthetic k6 run to import. Threads: run from a
 * command's thread.
 */
package io.rigscope.benchmarks.k6;
