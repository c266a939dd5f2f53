package org.perftrack.server.lab;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The kinds of job an agent says it takes when it registers. Each job reason belongs to one kind (the
 * {@code lab_job.kind} column says which): manual, schedule, new-version and bisection are timing jobs, confirm
 * and profile are their own. An agent that names no kinds is older than kinds and takes timing jobs only.
 */
public enum JobKind {
  TIMING, CONFIRM, PROFILE;

  /** What an agent that names no kinds takes: the jobs it knew. */
  static final List<JobKind> OLDER_AGENT = List.of(TIMING);

  @JsonValue
  public String wire() {
    return name().toLowerCase(Locale.ROOT);
  }

  static Optional<JobKind> parse(String text) {
    for (JobKind k : values()) {
      if (k.wire().equals(text)) {
        return Optional.of(k);
      }
    }
    return Optional.empty();
  }
}
