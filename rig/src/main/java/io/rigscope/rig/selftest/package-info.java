/**
 * {@code rigscope selftest}: the rig's own guarantees on the machine at hand, each read from a real run
 * ({@code FaultSeries} with {@code BrokerRestart}, {@code AnalyzerRestart}, {@code PgRestart}; {@code GeneratorKill},
 * {@code MalformedRecords}, {@code SharedBroker}, {@code DemoPair}). Shows {@code Selftest}, which runs them; the
 * guarantees are package-private. Orchestration: may use {@code series}, {@code calibrate}, {@code bringup},
 * {@code sutproc}, {@code options}. Runs on the command's thread; child JVMs and the faults they suffer are driven
 * from it.
 */
package io.rigscope.rig.selftest;
