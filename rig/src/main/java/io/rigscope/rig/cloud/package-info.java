/**
 * The series file's {@code cloud:} section. Shows {@code CloudSection}, with the stack it asks for ({@code
 * CloudSection.Spec}) and the names and tags every AWS resource of a rig carries ({@code CloudSection.Names}).
 * Subpackages by feature: {@code template} (the CloudFormation template and the plan's prices, offline), {@code
 * account} (the AWS calls, and a series run on the cloud rig). The commands are in {@code cli.cloud}. Orchestration:
 * may use {@code plan}, {@code pricing}, {@code options}. Everything runs on the command's own thread; nothing here is
 * shared between threads.
 */
package io.rigscope.rig.cloud;
