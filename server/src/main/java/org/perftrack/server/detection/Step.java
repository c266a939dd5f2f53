package org.perftrack.server.detection;

/**
 * A change point: the metric moved from {@code baselineValue} (the level of {@code baselineVersion}, the
 * trimmed mean of all its samples) to {@code value} (the level of {@code version}, the first version on
 * the new level); when that pair moved against the step (noise between two sessions), the typical levels
 * of the segments before and from it. {@code ratio} is value / baselineValue in the metric's own units,
 * so a higher-is-better drop has ratio &lt; 1. {@code pValue} is corrected for the scan over candidate
 * versions (not for the other metrics). {@code evidence} says in a few words what showed it (for the
 * regression's history). {@code confirmed} is false for a step at the newest version: no later version
 * has shown the new level yet. {@code firstSuspect}..{@code lastSuspect} (version order, never null) are the
 * versions the step may start at: the smallest run of versions holding most of the likelihood of its place,
 * {@code version} the likeliest of them; both equal {@code version} when the step is placed exactly.
 */
public record Step(String baselineVersion, String version, double baselineValue, double value,
          double ratio, double pValue, Regression.Kind kind, String evidence, boolean confirmed,
          String firstSuspect, String lastSuspect) {

  public Step {
    firstSuspect = firstSuspect == null ? version : firstSuspect;
    lastSuspect = lastSuspect == null ? version : lastSuspect;
  }

  /** A step placed exactly at {@code version}. */
  public Step(String baselineVersion, String version, double baselineValue, double value, double ratio,
      double pValue, Regression.Kind kind, String evidence, boolean confirmed) {
    this(baselineVersion, version, baselineValue, value, ratio, pValue, kind, evidence, confirmed, version, version);
  }

  /** Whether its place is a range of versions rather than one. */
  public boolean ranged() {
    return !firstSuspect.equals(lastSuspect);
  }
}
