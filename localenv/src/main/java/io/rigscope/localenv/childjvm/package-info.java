/**
 * Child JVMs this process starts and owns: {@link io.rigscope.localenv.childjvm.ChildJvm}, the one launcher of a
 * service in a JVM of its own (the SUT, {@code sut} and the series' services, waited for until it prints its URL)
 * and of a process spoken to over a line protocol on stdin/stdout (the peer bench's server and tools); its CPU time
 * from {@code /proc} ({@link io.rigscope.model.proc.ProcStat}), its stop (quit, SIGTERM, SIGKILL) on close and at exit.
 *
 * <p>Threads: the caller's, blocking; a line-protocol child adds one daemon thread that reads its stdout, and every
 * child a shutdown hook.
 */
package io.rigscope.localenv.childjvm;
