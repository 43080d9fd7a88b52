/**
 * The series file's {@code cloud:} section ({@code CloudSection.Spec}, {@code CloudSection}), the names a rig's AWS
 * resources carry, and a series run on the cloud rig ({@code RemoteSeries}). Subpackages by feature: {@code template}
 * (the CloudFormation template and the plan's prices, offline), {@code account} (the AWS calls). The commands are in
 * {@code cli.cloud}. Orchestration: may use {@code plan}, {@code pricing}, {@code options}. Everything runs on the
 * command's own thread; nothing here is shared between threads.
 */
package io.rigscope.rig.cloud;
