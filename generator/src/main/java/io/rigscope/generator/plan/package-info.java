/**
 * A load plan: scenarios, their requests, body templates, CSV records, customer pools and response checks. Uses
 * schedule. Threads: immutable after load, read on any thread.
 */
package io.rigscope.generator.plan;
