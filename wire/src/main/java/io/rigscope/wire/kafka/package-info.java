/**
 * Kafka plumbing: client settings, consumers, topic administration and the broker's address file. Uses host and
 * model.topic. Threads: each consumer is its caller's, polled on one thread.
 */
package io.rigscope.wire.kafka;
