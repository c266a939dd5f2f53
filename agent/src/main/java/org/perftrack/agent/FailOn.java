package org.perftrack.agent;

import java.util.List;
import java.util.Locale;
import com.fasterxml.jackson.databind.JsonNode;
import org.perftrack.agent.text.Words;
import org.perftrack.agent.upload.Pass;
import picocli.CommandLine;

/**
 * When an upload exits with 3: never; on any regression the server reported (a step at the newest version too,
 * before a later build confirmed it); or only on confirmed ones (for teams that prefer to wait for the next build).
 */
enum FailOn {
  NEVER, REGRESSION, CONFIRMED;

  boolean fails(Pass summary) {
    switch (this) {
      case REGRESSION:
        return !summary.regressions().isEmpty();
      case CONFIRMED:
        return !summary.confirmed().isEmpty() || anyConfirmed(summary.regressions());
      default:
        return false;
    }
  }

  /** Why the upload fails: "1 confirmed regression (--fail-on confirmed)", "2 regressions (--fail-on-regression)". */
  String why(Pass summary) {
    if (this == CONFIRMED) {
      int n = summary.confirmed().size() + confirmedOf(summary.regressions());
      return Words.count(n, "confirmed regression") + " (--fail-on confirmed)";
    }
    return Words.count(summary.regressions().size(), "regression") + " (--fail-on-regression)";
  }

  private static boolean anyConfirmed(List<JsonNode> regressions) {
    return confirmedOf(regressions) > 0;
  }

  private static int confirmedOf(List<JsonNode> regressions) {
    int n = 0;
    for (JsonNode r : regressions) {
      n += r.path("confirmed").asBoolean(true) ? 1 : 0;
    }
    return n;
  }

  /** {@code --fail-on regression|confirmed}, any case. */
  static final class Converter implements CommandLine.ITypeConverter<FailOn> {
    @Override
    public FailOn convert(String value) {
      try {
        return FailOn.valueOf(value.trim().toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new CommandLine.TypeConversionException("expected regression or confirmed, got '" + value + "'");
      }
    }
  }
}
