package org.perftrack.server.detection;

/**
 * A change point: the metric moved from {@code baselineValue} (typical level of the versions up to
 * {@code baselineVersion}) to {@code value} (level from {@code version} on). {@code ratio} is
 * value / baselineValue in the metric's own units, so a higher-is-better drop has ratio &lt; 1.
 * {@code pValue} is corrected for the scan over candidate versions (not for the other metrics).
 */
public record Step(String baselineVersion, String version, double baselineValue, double value,
          double ratio, double pValue, Regression.Kind kind) {
}
