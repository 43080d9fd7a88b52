/**
 * Free loopback ports for local servers. The bottom package. Threads: stateless, any thread.
 */
package io.rigscope.localenv.net;
