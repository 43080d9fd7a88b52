/**
 * {@code rigscope cloud}: the series file's {@code cloud:} section ({@link io.rigscope.rig.cloud.CloudSpec}), and the
 * commands that plan, stand up, extend, tear down and check a rig on AWS. Sub-packages by feature: {@code template}
 * (the CloudFormation template and the plan's prices, offline), {@code account} (the AWS calls). Everything runs on
 * the command's own thread; nothing here is shared between threads.
 */
package io.rigscope.rig.cloud;
