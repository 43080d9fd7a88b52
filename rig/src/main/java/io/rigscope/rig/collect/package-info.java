/**
 * {@code rigscope collect}'s work below its command: the collect loop ({@code CollectLoop}: merge the
 * collectors' streams, publish, watch for stalls), where records go ({@code CollectOutput}), the line a second
 * ({@code LiveLine}), and {@code collect k6} ({@code CollectK6}, {@code CollectK6.FollowOptions}). Orchestration: may use
 * {@code export}, {@code reconciliation}, {@code options}. Records are published on one thread
 * ({@code rigscope-collect-publish}); the caller's thread waits; {@code LiveLine} is thread-safe.
 */
package io.rigscope.rig.collect;
