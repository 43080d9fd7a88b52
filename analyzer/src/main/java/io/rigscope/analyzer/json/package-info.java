/**
 * The JSON view every analyzer record writes itself with ({@code WireView}); the bottom package: it uses no other
 * analyzer package. Threads: stateless, any thread.
 */
package io.rigscope.analyzer.json;
