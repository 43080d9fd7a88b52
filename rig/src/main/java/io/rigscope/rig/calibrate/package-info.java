/**
 * {@code rigscope calibrate}: each tail cause provoked for real on a private PostgreSQL cluster and the
 * reference SUT ({@code CalibrationCase}s run by {@code CaseRun}), and what the analyzer found compared with what
 * happened ({@code CaseResult}); the {@code rds} profile's AWS stand-in ({@code RdsStandIn} and the streams it
 * serves). Orchestration: may use {@code series}, {@code bringup}, {@code environment}, {@code sutproc},
 * {@code options}. A case runs on the command's thread; each provocation on its own daemon thread
 * ({@code Background}); the stand-in's HTTP server on its own threads.
 */
package io.rigscope.rig.calibrate;
