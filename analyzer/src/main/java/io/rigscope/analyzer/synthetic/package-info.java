/**
 * Planted series for tests, the selftest and the benchmarks: {@link io.rigscope.analyzer.synthetic.SyntheticSeries}
 * emits the records a real generator and orchestrator would publish, on a virtual clock, deterministic for a seed.
 * Uses only the model's wire records. Threads: the caller's.
 */
package io.rigscope.analyzer.synthetic;
