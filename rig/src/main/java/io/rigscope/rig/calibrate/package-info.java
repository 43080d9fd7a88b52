/**
 * {@code rigscope calibrate}: each tail cause provoked for real on a private PostgreSQL cluster and the
 * reference SUT ({@code CalibrationCase}s run by {@code CaseRun}), and what the analyzer found compared with what
 * happened ({@code CaseResult}); the {@code rds} profile's telemetry ({@code RdsTelemetry}: which local readings
 * feed the aws-standin module's {@code RdsStandIn}, read back by the real RDS collectors).
 * Orchestration: may use {@code series}, {@code bringup}, {@code environment}, {@code sutproc}, {@code options}. A case runs on the command's thread; each provocation on its own daemon thread
 * ({@code Background}); the stand-in's HTTP server and feeders on their own threads.
 */
package io.rigscope.rig.calibrate;
