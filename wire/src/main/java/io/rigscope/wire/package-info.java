/**
 * Publishing and reading wire records: {@code WirePublisher}, {@code WireSource}, wire files and the dead-letter sink.
 * Uses kafka, host and the model. Threads: the publisher is thread-safe; a source polls on one thread and decodes on
 * whichever asks.
 */
package io.rigscope.wire;
