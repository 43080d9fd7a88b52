/**
 * AWS on-demand list prices for what a rig is made of. Shows {@code PriceTable} (bundled), with {@code
 * PriceTable.LivePrices} (read from the Price List API). Orchestration, near the bottom: may use {@code options}.
 * Immutable tables; a live lookup runs on the caller's thread.
 */
package io.rigscope.rig.pricing;
