/**
 * A service in a JVM of its own ({@code ChildJvm}) and the reference SUT run so ({@code SutProcess}: its log
 * file, URL and stop). Orchestration, near the bottom: may use {@code options}. Blocking, from the caller's thread; a
 * shutdown hook stops a child the JVM leaves behind.
 */
package io.rigscope.rig.sutproc;
