/**
 * One series (a benchmark/metric of a product, on each machine): {@code GET /api/v1/series} ({@code SeriesApi}), its
 * page ({@code SeriesPages}) and the chart's points ({@code SeriesChartApi}, in buckets from the kept summaries of
 * {@code chart_summary} and {@code chart_boundary} when the history is long).
 */
package org.perftrack.server.series;
