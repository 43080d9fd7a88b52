/**
 * The wire codec: JSON and Smile for every record, compact samples, and the record type each topic decodes to. Uses
 * topic and wire. Threads: thread-safe; share one instance.
 */
package io.rigscope.model.codec;
