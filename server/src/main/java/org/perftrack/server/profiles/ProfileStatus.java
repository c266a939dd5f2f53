package org.perftrack.server.profiles;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * Where a regression's profile stands: none asked, its lab job queued or running, done (both versions profiled),
 * failed, or impossible (no lab agent of the machine offers both versions and takes profile jobs).
 */
public enum ProfileStatus {
  NONE, QUEUED, RUNNING, DONE, FAILED, IMPOSSIBLE;

  @JsonValue
  public String wire() {
    return name().toLowerCase(Locale.ROOT);
  }
}
