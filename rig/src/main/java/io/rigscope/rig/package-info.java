/**
 * rigscope's launcher: {@code Main} sets up the console and runs {@code cli.RigscopeCommand}. It may use {@code cli}
 * and {@code options}; nothing in rig uses it (but {@code cli.BenchVsPeers}, which names it as the main class of the
 * peer bench's server JVM: frozen in {@code RigLayersTest}). Runs on the JVM's main thread.
 */
package io.rigscope.rig;
