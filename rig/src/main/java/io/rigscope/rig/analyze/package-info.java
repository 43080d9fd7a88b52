/**
 * {@code rigscope analyze} without {@code --series}: {@code EverySeries} follows {@code rig.markers} in a Kafka
 * consumer group and analyses each series that starts. Orchestration: may use {@code options} and the modules below
 * rig, not {@code cli}. The consumer runs on a thread of its own; each series' analysis on the analyzer's
 * schedulers.
 */
package io.rigscope.rig.analyze;
