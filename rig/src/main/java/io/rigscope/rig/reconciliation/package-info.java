/**
 * What the database gained in a repeat, by the configured SQL. Shows {@code Reconciliation}, with its named parameters
 * ({@code Reconciliation.NamedSql}) and the count at a repeat's end for commands that run one repeat apart from {@code
 * run} ({@code Reconciliation.Repeat}). Orchestration, near the bottom: may use {@code options}. Runs on the caller's
 * thread (blocking SQL).
 */
package io.rigscope.rig.reconciliation;
