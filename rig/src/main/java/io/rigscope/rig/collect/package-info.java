/**
 * {@code rigscope collect}'s work below its command. Shows {@code CollectLoop} (merge the collectors' streams, publish,
 * watch for stalls), with {@code collect k6} as {@code CollectLoop.K6} and its {@code CollectLoop.K6.FollowOptions};
 * package-private: where records go ({@code CollectOutput}) and the line a second ({@code LiveLine}). Orchestration:
 * may use {@code export}, {@code reconciliation}, {@code options}. Records are published on one thread ({@code
 * rigscope-collect-publish}); the caller's thread waits; {@code LiveLine} is thread-safe.
 */
package io.rigscope.rig.collect;
