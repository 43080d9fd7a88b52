/**
 * Where the generator's records go: {@code RecordSink}, the outbox buffer in front of a slow sink (rig-gen-outbox),
 * its spool file and the write-ahead sample journal. Uses the model and the wire. Threads: any number of producers;
 * one drain thread calls the sink.
 */
package io.rigscope.generator.outbox;
