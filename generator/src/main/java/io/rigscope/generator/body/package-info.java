/**
 * Request bodies rendered from a scenario's templates. Uses plan and schedule. Threads: thread-safe, called on the
 * client event loops (never blocks).
 */
package io.rigscope.generator.body;
