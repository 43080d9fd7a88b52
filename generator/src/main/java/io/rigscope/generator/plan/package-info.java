/**
 * A load plan: scenarios, their requests, body templates, CSV records, customer pools and response checks, and the
 * defaults that follow a plan's rate when nobody gives them ({@link io.rigscope.generator.plan.DefaultSizing}: the
 * in-flight cap, the client event loops). Uses schedule. Threads: immutable after load, read on any thread.
 */
package io.rigscope.generator.plan;
