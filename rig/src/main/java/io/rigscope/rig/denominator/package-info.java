/**
 * The database's own ceiling for a row shape, by pgbench. Shows {@code Denominator}, with the user's row as
 * the script ({@code Denominator.InsertTemplate}) and the Postgres log line that explains a failed step
 * ({@code Denominator.LogExcerpt}). Orchestration: may use {@code options}. Runs on the caller's thread (pgbench as a
 * child process).
 */
package io.rigscope.rig.denominator;
