package org.perftrack.server.detection;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * What detection says of a compared pair, so that compare and the regressions never contradict each other
 * silently: a step between the two versions was {@code DETECTED} (a record stands, confirmed), is
 * {@code WAITING_FOR_CONFIRMATION} (reported at the newest version, no later version yet), or the pair differs but
 * is {@code NOT_A_STEP} against the series' own noise between versions (compare judges two versions' samples;
 * detection judges the series).
 */
public enum DetectionState {
  DETECTED("detected"), WAITING_FOR_CONFIRMATION("waiting for confirmation"),
  NOT_A_STEP("not a step against this series' noise");

  private final String label;

  DetectionState(String label) {
    this.label = label;
  }

  @JsonValue
  public String wire() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  public String label() {
    return label;
  }

  /** The state for a pair: the stored step between them (confirmed or not), or none; null when nothing to say. */
  static DetectionState of(Boolean recordConfirmed, Verdict verdict) {
    if (recordConfirmed != null) {
      return recordConfirmed ? DETECTED : WAITING_FOR_CONFIRMATION;
    }
    return verdict == Verdict.REGRESSION || verdict == Verdict.IMPROVEMENT ? NOT_A_STEP : null;
  }
}
