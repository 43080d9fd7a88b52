/**
 * The AWS calls of {@code rigscope cloud}: one {@link io.rigscope.rig.cloud.account.AwsAccess} builds every SDK client
 * (sync, url-connection, bounded call timeouts), {@link io.rigscope.rig.cloud.account.Inventory} lists what is tagged
 * {@code rigscope:*}, {@link io.rigscope.rig.cloud.account.StackLifecycle} stands a rig up, extends and deletes it.
 * Orchestration: may use {@code cloud}, {@code cloud.template}, {@code options}. Everything runs on the calling
 * thread.
 */
package io.rigscope.rig.cloud.account;
