package org.perftrack.server.detection;

/**
 * A step as previously stored for one series (regression or improvement); {@code confirmed}, {@code firstSuspect}
 * and {@code lastSuspect} as in {@link Step}.
 */
public record RecordedRegression(long id, String baselineVersion, String version, double baselineValue,
                 double value, Regression.Kind kind, Regression.Status status, boolean confirmed,
                 String firstSuspect, String lastSuspect) {

  public RecordedRegression {
    firstSuspect = firstSuspect == null ? version : firstSuspect;
    lastSuspect = lastSuspect == null ? version : lastSuspect;
  }

  /** A record placed exactly at {@code version}. */
  public RecordedRegression(long id, String baselineVersion, String version, double baselineValue, double value,
      Regression.Kind kind, Regression.Status status, boolean confirmed) {
    this(id, baselineVersion, version, baselineValue, value, kind, status, confirmed, version, version);
  }
}
