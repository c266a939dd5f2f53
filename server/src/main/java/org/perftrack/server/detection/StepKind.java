package org.perftrack.server.detection;

/** Whether a step made the metric worse (an alert) or better (recorded, no alert). */
public enum StepKind {
  REGRESSION, IMPROVEMENT;

  public String wire() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
