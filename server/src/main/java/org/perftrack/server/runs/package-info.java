/**
 * One stored run: its page ({@code RunPages}), {@code GET /api/v1/runs/{id}} ({@code RunApi}), and its report for
 * CI ({@code RunReportApi}: a pull request comment in Markdown, JUnit XML, JSON).
 */
package org.perftrack.server.runs;
