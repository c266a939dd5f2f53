package org.perftrack.server.detection;

import java.time.Instant;

/** A regression as the REST API shows it (DESIGN.md: GET /api/v1/regressions). */
public record RegressionView(
    long id,
    String product,
    String machine,
    String benchmark,
    String metric,
    String unit,
    String direction,
    String baselineVersion,
    String version,
    double baselineValue,
    double value,
    double ratio,
    double pValue,
    String status,
    Instant detectedAt) {}
