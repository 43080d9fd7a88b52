/**
 * The AWS stand-in's protocol layer: one local HTTP endpoint ({@code AwsStandIn}) that reads each request
 * ({@code AwsCall}: signing service, action, form, JSON), routes it by action (or to one fallback), and encodes the answer
 * or error as the service's protocol documents it ({@code AwsAnswer}: query XML, EC2, JSON 1.1, REST-JSON,
 * REST-XML), so the real AWS SDK clients can be run without AWS. Service behaviours sit on top (the
 * {@code rds} package here; tests' own routes). Threading: the JDK HTTP server's single dispatcher thread calls the
 * handlers one at a time; routes and the call log are safe to use from any thread.
 */
package io.rigscope.awsstandin;
