/**
 * The HTTP/1.1 client: event loops (rig-gen-http-N), connections and request encoding. Uses no other generator package
 * but the parts it is handed. Threads: the client event loops; nothing here blocks.
 */
package io.rigscope.generator.http;
