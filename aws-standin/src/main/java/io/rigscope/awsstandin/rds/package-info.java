/**
 * An RDS for PostgreSQL instance on the AWS stand-in ({@code RdsStandIn}): the RDS collectors' calls
 * (Enhanced Monitoring's log stream, Performance Insights, the RDS log download, CloudWatch's {@code AWS/RDS}
 * metrics), DescribeDBInstances and DescribeDBParameters ({@code RdsInstance}), the Price List's GetProducts and the
 * instance metadata service's zone, made of readings its owner adds (rig's {@code calibrate --profile rds} and
 * tests feed it from a local PostgreSQL cluster). Threading: the stand-in's server thread answers; the owner's
 * feeder threads add; a daemon timer releases the log; the streams are synchronized.
 */
package io.rigscope.awsstandin.rds;
