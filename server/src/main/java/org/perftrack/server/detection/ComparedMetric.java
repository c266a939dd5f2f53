package org.perftrack.server.detection;

/**
 * One metric measured in both versions on one machine, judged (GET /api/v1/compare's row, and the
 * compare page's). {@code pValue} null when not computable; {@code paired} when both were measured
 * interleaved in one batch.
 */
public record ComparedMetric(String benchmark, String metric, String unit, Direction direction, double baseValue,
    double headValue, double ratio, Double pValue, Verdict verdict, boolean paired) {}
