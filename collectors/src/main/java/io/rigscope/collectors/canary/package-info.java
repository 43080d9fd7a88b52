/**
 * The disk canary: a write plus fdatasync per interval, and its thread's run-queue wait. Uses the toolkit and
 * model.proc. Threads: its own thread (rigscope-canary) while subscribed.
 */
package io.rigscope.collectors.canary;
