/**
 * The CloudFormation template a {@code cloud:} section becomes. Shows {@code StackTemplate}, with its priced plan
 * ({@code StackTemplate.Plan}, from the bundled {@link io.rigscope.rig.pricing.PriceTable}). Offline and pure: no AWS
 * call, no clock read (the expiry is given). Orchestration: may use {@code cloud}, {@code pricing}. Immutable values,
 * safe on any thread.
 */
package io.rigscope.rig.cloud.template;
