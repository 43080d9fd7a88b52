/**
 * rigscope's Kafka topics: names, partitions and retention. The bottom package: uses nothing else in the model.
 * Threads: an enum, any thread.
 */
package io.rigscope.model.topic;
