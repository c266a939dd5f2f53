package org.perftrack.server.lab;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** Where a lab job stands: queued for an agent, running under a lease, done, or failed after its attempts. */
public enum JobStatus {
  QUEUED, RUNNING, DONE, FAILED;

  @JsonValue
  public String wire() {
    return name().toLowerCase(Locale.ROOT);
  }
}
