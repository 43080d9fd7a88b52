/**
 * The host's view: finding executables on the PATH and parsing host:port. Uses nothing else in rigscope. Threads:
 * stateless and thread-safe.
 */
package io.rigscope.wire.host;
