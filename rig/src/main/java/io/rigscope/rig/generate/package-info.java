/**
 * The generator's YAML plan file ({@code LoadPlanFile}, {@code generate --config}). Orchestration: may use
 * {@code plan}, {@code options}. Stateless; the caller's thread.
 */
package io.rigscope.rig.generate;
