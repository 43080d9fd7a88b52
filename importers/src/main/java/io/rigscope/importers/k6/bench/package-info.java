/**
 * The k6 importer's benchmark ({@code rigscope bench import-k6}) and its synthetic k6 run. No other package uses it.
 * Threads: run from a command's thread.
 */
package io.rigscope.importers.k6.bench;
