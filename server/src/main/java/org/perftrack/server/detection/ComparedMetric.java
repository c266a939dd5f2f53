package org.perftrack.server.detection;

/**
 * One metric measured in both versions on one machine, judged (GET /api/v1/compare's row, and the
 * compare page's). {@code pValue} null when not computable; {@code paired} when both were measured
 * interleaved in one batch. {@code detection}: what detection says of a step between the two versions (null when
 * nothing: no step stored and the pair unchanged).
 */
public record ComparedMetric(String benchmark, String metric, String unit, Direction direction, double baseValue,
    double headValue, double ratio, Double pValue, Verdict verdict, boolean paired,
    @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
    DetectionState detection) {}
