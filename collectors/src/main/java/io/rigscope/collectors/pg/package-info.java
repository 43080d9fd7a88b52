/**
 * An R2DBC connection to the Postgres under test, for the db and waits collectors. Uses io.rigscope.pg. Threads:
 * immutable and thread-safe; the connections are non-blocking.
 */
package io.rigscope.collectors.pg;
