/**
 * The checks a series passes before any load ({@code BringUpChecks} for the reference SUT,
 * {@code BringUpChecks.ServiceWriteThrough} for a service rigscope did not write), each a {@code BringUpChecks.CheckResult}. Orchestration: may use
 * {@code reconciliation} and {@code options}. Runs on the caller's thread (blocking SQL and HTTP).
 */
package io.rigscope.rig.bringup;
