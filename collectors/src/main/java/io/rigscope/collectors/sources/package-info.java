/**
 * Assembles the collector streams a series asks for ({@code TelemetrySources}): the top of the module, the one package
 * that uses every collector. Threads: builds cold Fluxes on the caller's thread; nothing runs until they are
 * subscribed.
 */
package io.rigscope.collectors.sources;
