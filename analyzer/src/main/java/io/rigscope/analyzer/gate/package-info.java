/**
 * A gate's result ({@code GateResult}), the one gate type other modules read; the gates themselves live in repeat.
 * Uses json only. Threads: an immutable value, read on any thread.
 */
package io.rigscope.analyzer.gate;
