/**
 * The generator's own health per second (CPU, hiccups, queue depths). Uses the model only. Threads: its own threads
 * (rig-gen-health, rig-gen-hiccup).
 */
package io.rigscope.generator.health;
