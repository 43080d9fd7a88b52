/**
 * rigscope's launcher: {@code Main} sets up the console and runs {@code cli.RigscopeCommand}. It may use {@code cli}
 * and {@code options}; nothing in rig uses it (but {@code bench.PeerBench}, which names it as a child JVM's main
 * class: frozen in {@code RigLayersTest}). Runs on the JVM's main thread.
 */
package io.rigscope.rig;
