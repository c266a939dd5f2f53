package org.perftrack.server.detection;

/** Outcome of comparing two versions of one metric. */
public enum Verdict {
  REGRESSION, IMPROVEMENT, UNCHANGED, INSUFFICIENT_DATA;

  @com.fasterxml.jackson.annotation.JsonValue
  public String wire() {
    return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
  }
}
