/**
 * The collectors' toolkit: {@code CollectorContext} (what every record is stamped with), {@code Resilient} and {@code
 * Backoff} (a source that comes and goes leaves gap markers), {@code CollectorSet}. Uses the model only; used by every
 * collector package. Threads: immutable values; the streams run on Reactor's schedulers once subscribed.
 */
package io.rigscope.collectors;
