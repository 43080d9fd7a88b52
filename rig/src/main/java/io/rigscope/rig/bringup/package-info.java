/**
 * The checks a series passes before any load. Shows {@code BringUpChecks} (for the reference SUT), with
 * {@code BringUpChecks.ServiceWriteThrough} (for a service rigscope did not write) and each check's
 * {@code BringUpChecks.CheckResult}. Orchestration: may use {@code reconciliation} and {@code options}. Runs on the
 * caller's thread (blocking SQL and HTTP).
 */
package io.rigscope.rig.bringup;
