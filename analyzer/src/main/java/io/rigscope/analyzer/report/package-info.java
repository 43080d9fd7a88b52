/**
 * The reports a series leaves: Markdown, HTML with charts, interval logs, the comparison page and the dashboard's
 * series page. Uses decision and compare. Threads: pure but for the
 * files written; run on the caller's thread.
 */
package io.rigscope.analyzer.report;
