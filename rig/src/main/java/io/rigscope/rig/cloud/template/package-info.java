/**
 * The CloudFormation template a {@code cloud:} section becomes ({@link io.rigscope.rig.cloud.template.StackTemplate})
 * and its priced plan ({@link io.rigscope.rig.cloud.template.StackTemplate.Plan}, from the bundled
 * {@link io.rigscope.rig.pricing.PriceTable}). Offline and pure: no AWS call, no clock read (the expiry is given).
 * Orchestration: may use {@code cloud}, {@code pricing}. Immutable values, safe on any thread.
 */
package io.rigscope.rig.cloud.template;
