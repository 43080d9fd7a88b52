/**
 * A series against an RDS instance. Shows {@code RdsRig}, with the series file's {@code rds:} section
 * ({@code RdsRig.Target}); package-private: the instance described through the RDS API ({@code RdsLookup},
 * {@code RdsInstance}, {@code DbInstanceClasses}) and the load host's zone ({@code LoadHostZone}). Orchestration: may
 * use {@code environment}, {@code pricing}, {@code options}. Runs on the caller's thread.
 */
package io.rigscope.rig.rds;
