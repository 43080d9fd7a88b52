/**
 * Arrival schedules (constant rate, shares between scenarios): when each request is due. The bottom package. Threads:
 * immutable and thread-safe.
 */
package io.rigscope.generator.schedule;
