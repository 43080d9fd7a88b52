/**
 * What the database gained in a repeat, by the configured SQL ({@code Reconciliation}, named parameters
 * by {@code NamedSql}), and the count at a repeat's end for commands that run one repeat apart from {@code run}
 * ({@code RepeatReconciliation}). Orchestration, near the bottom: may use {@code options}. Runs on the caller's
 * thread (blocking SQL).
 */
package io.rigscope.rig.reconciliation;
