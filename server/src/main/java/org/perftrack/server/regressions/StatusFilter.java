package org.perftrack.server.regressions;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.perftrack.server.detection.Regression;
import org.perftrack.server.problems.InvalidInput;

/** The regressions list's status filter ({@code ?status=}): one status, the triaged ones, or all (withdrawn too). */
public enum StatusFilter {
  OPEN("open"), ACKNOWLEDGED("acknowledged"), TRIAGED("triaged (not open)"), INVALID("invalid"), FIXED("fixed"),
  WONTFIX("won't fix"), WITHDRAWN("withdrawn (by detection)"), ALL("all (also withdrawn)");

  private final String label;

  StatusFilter(String label) {
    this.label = label;
  }

  /** How the address spells it. */
  public String wire() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** What the filter's list shows. */
  public String label() {
    return label;
  }

  /** The statuses the list shows under this filter. */
  List<Regression.Status> statuses() {
    return switch (this) {
      case ALL -> List.of(Regression.Status.values());
      case TRIAGED -> Regression.Status.VISIBLE.stream().filter(Regression.Status::triaged).toList();
      default -> List.of(Regression.Status.of(wire()));
    };
  }

  /** @throws InvalidInput naming {@code status} and every spelling it may have */
  static StatusFilter of(String wire) {
    return Arrays.stream(values()).filter(f -> f.wire().equals(wire)).findFirst().orElseThrow(() -> new InvalidInput(
        "status", "must be one of " + String.join(", ", Arrays.stream(values()).map(StatusFilter::wire).toList())
            + ", got: " + wire));
  }
}
