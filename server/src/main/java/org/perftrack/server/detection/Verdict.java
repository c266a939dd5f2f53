package org.perftrack.server.detection;

/**
 * Outcome of comparing two versions of one metric. {@code INCONCLUSIVE}: the values moved by more
 * than the smallest change that counts, but the samples are too noisy to say it was not chance
 * (×0.40 at p = 0.21 is not "unchanged").
 */
public enum Verdict {
  REGRESSION, IMPROVEMENT, UNCHANGED, INCONCLUSIVE, INSUFFICIENT_DATA;

  @com.fasterxml.jackson.annotation.JsonValue
  public String wire() {
    return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
  }

  /** @throws IllegalArgumentException for a spelling that is none of the wire's */
  public static Verdict of(String wire) {
    for (Verdict v : values()) {
      if (v.wire().equals(wire)) {
        return v;
      }
    }
    throw new IllegalArgumentException("verdict must be one of regression, improvement, unchanged, inconclusive,"
        + " insufficient-data, got: " + wire);
  }
}
