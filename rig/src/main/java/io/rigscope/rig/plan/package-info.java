/**
 * YAML bound into records ({@code ScenarioSpec.Yaml}: snake_case keys, unknown keys refused) and one scenario as plan and
 * series files write it ({@code ScenarioSpec}). Orchestration, near the bottom: may use {@code options}. Stateless.
 */
package io.rigscope.rig.plan;
