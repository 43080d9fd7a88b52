/**
 * The AWS calls of {@code rigscope cloud}. Shows {@code AwsAccess} (builds every SDK client: sync,
 * url-connection, bounded call timeouts; {@code AwsAccess.Inventory} lists what is tagged {@code rigscope:*};
 * {@code AwsAccess.CouldNotLook} is a call that failed), {@code StackLifecycle} (stands a rig up, extends and deletes
 * it) and {@code RemoteRun} (a series run on load node 1, the file and script it sends: {@code RemoteRun.Series}).
 * Orchestration: may use {@code cloud}, {@code cloud.template}, {@code options}. Everything runs on the calling
 * thread.
 */
package io.rigscope.rig.cloud.account;
