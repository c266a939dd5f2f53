package org.perftrack.server.detection;

import java.util.Locale;

/** Life cycle of a recorded step. People set the triaged ones; the detector sets open and withdrawn. */
public enum RegressionStatus {
  OPEN, ACKNOWLEDGED, INVALID, FIXED, WONTFIX, WITHDRAWN;

  public static RegressionStatus of(String wire) {
    try {
      return valueOf(wire.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "status must be one of open, acknowledged, invalid, fixed, wontfix, withdrawn, got: " + wire);
    }
  }

  public String wire() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** A person has judged it: the detector never changes its status again. */
  public boolean triaged() {
    return this != OPEN && this != WITHDRAWN;
  }
}
