/**
 * The facts a published figure carries: host, PostgreSQL version and settings, cost
 * ({@code EnvironmentFacts}). Orchestration, near the bottom: may use {@code options}. Runs on the caller's thread.
 */
package io.rigscope.rig.environment;
