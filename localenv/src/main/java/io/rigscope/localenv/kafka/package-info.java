/**
 * The local broker: embedded KRaft Kafka, in process or detached in its own JVM ({@code BrokerMain}), with leases so
 * tests and commands share it. Uses net and the wire's Kafka plumbing. Threads: safe from any thread and process; a
 * watcher daemon thread holds the lease.
 */
package io.rigscope.localenv.kafka;
