/**
 * AWS on-demand list prices for what a rig is made of ({@code PriceTable}, bundled; {@code PriceTable.LivePrices}, read
 * from the Price List API). Orchestration, near the bottom: may use {@code options}. Immutable tables; a live lookup
 * runs on the caller's thread.
 */
package io.rigscope.rig.pricing;
