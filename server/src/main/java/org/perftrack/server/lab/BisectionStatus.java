package org.perftrack.server.lab;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** Where a bisection stands: waiting for an agent, measuring, done (first bad version found) or impossible. */
public enum BisectionStatus {
  PENDING, RUNNING, DONE, IMPOSSIBLE;

  @JsonValue
  public String wire() {
    return name().toLowerCase(Locale.ROOT);
  }
}
