/**
 * The reference SUT in a JVM of its own. Shows {@code SutProcess} (started through {@code childjvm}: its log
 * file, URL and stop), with its warm-up before the first measured step ({@code SutProcess.SutWarmup}: the series' own
 * requests, every record discarded). Orchestration: may use {@code childjvm}, {@code series} (the plan the warm-up
 * reads), {@code options}. Blocking, from the caller's thread; a shutdown hook stops a child the JVM leaves behind.
 */
package io.rigscope.rig.sutproc;
