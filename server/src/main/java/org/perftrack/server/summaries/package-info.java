/**
 * Regression summaries (issue 11): the regressions of one product at one version across benchmarks,
 * metrics and machines, with how many machines corroborate each and the hints they share. Detection
 * publishes the regressions; this package groups them ({@code summary}, {@code summary_member}), and
 * holds the summary API and page. It never writes the regression table: triage goes through
 * detection's {@code Regressions}.
 */
package org.perftrack.server.summaries;
