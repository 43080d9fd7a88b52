/**
 * A JDBC connection to the Postgres under test, for the db and waits collectors. Uses io.rigscope.pg. Threads:
 * immutable and thread-safe; connections are the caller's.
 */
package io.rigscope.collectors.pg;
