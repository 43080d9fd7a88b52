/**
 * One scenario as plan and series files write it. Shows {@code ScenarioSpec}, with the YAML binding every rig file
 * reader shares ({@code ScenarioSpec.Yaml}: snake_case keys, unknown keys refused). Orchestration, near the bottom: may
 * use {@code options}. Stateless.
 */
package io.rigscope.rig.plan;
