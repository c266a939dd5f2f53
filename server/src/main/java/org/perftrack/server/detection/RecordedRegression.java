package org.perftrack.server.detection;

/** A step as previously stored for one series (regression or improvement); {@code confirmed} as in {@link Step}. */
public record RecordedRegression(long id, String baselineVersion, String version, double baselineValue,
                 double value, Regression.Kind kind, Regression.Status status, boolean confirmed) {
}
