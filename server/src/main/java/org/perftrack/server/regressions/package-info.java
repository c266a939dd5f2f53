/**
 * The regressions as people see them: the list and one regression's page with triage ({@code RegressionPages}),
 * {@code /api/v1/regressions} ({@code RegressionsApi}). The records are detection's, read and triaged through
 * {@code detection.Regressions}.
 */
package org.perftrack.server.regressions;
