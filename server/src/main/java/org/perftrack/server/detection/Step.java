package org.perftrack.server.detection;

/**
 * A change point: the metric moved from {@code baselineValue} (the level of {@code baselineVersion}, the
 * trimmed mean of all its samples) to {@code value} (the level of {@code version}, the first version on
 * the new level); when that pair moved against the step (noise between two sessions), the typical levels
 * of the segments before and from it. {@code ratio} is value / baselineValue in the metric's own units,
 * so a higher-is-better drop has ratio &lt; 1. {@code pValue} is corrected for the scan over candidate
 * versions (not for the other metrics). {@code evidence} says in a few words what showed it (for the
 * regression's history). {@code confirmed} is false for a step at the newest version: no later version
 * has shown the new level yet.
 */
public record Step(String baselineVersion, String version, double baselineValue, double value,
          double ratio, double pValue, Regression.Kind kind, String evidence, boolean confirmed) {
}
