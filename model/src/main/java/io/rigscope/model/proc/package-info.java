/**
 * Linux's per-process and per-thread {@code stat} files ({@code /proc/PID/stat}, {@code /proc/PID/task/TID/stat})
 * read in one place: {@link io.rigscope.model.proc.ProcStat} finds the fields after the command name, which may hold
 * spaces and parentheses, and names them with their units (clock ticks). JDK only, so every module that reads
 * {@code /proc} (the generator's bench, the collectors, the rig's peer bench) uses it; it lives in {@code model}
 * because that is the one module all three depend on. Stateless: any thread.
 */
package io.rigscope.model.proc;
