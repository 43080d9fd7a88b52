/**
 * {@code DemoPlan}: the built-in series files {@code rigscope demo} runs (resources beside the class).
 * Orchestration: may use {@code series}, {@code options}. Stateless.
 */
package io.rigscope.rig.demo;
