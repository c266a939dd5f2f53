package org.perftrack.server.detection;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** Which way is good for a metric; the wire spelling is {@code lower_is_better} / {@code higher_is_better}. */
public enum Direction {
  LOWER_IS_BETTER, HIGHER_IS_BETTER;

  public static Direction of(String wire) {
    return switch (wire == null ? "" : wire) {
      case "lower_is_better" -> LOWER_IS_BETTER;
      case "higher_is_better" -> HIGHER_IS_BETTER;
      default -> throw new IllegalArgumentException(
          "direction must be lower_is_better or higher_is_better, got: " + wire);
    };
  }

  @JsonValue
  public String wire() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** A change of the metric by {@code logShift} (log of value/baseline) is worse for the user. */
  boolean isWorse(double logShift) {
    return this == LOWER_IS_BETTER ? logShift > 0 : logShift < 0;
  }
}
