package org.perftrack.agent;

import java.util.List;
import java.util.Locale;
import com.fasterxml.jackson.databind.JsonNode;
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

  private static boolean anyConfirmed(List<JsonNode> regressions) {
    for (JsonNode r : regressions) {
      if (r.path("confirmed").asBoolean(true)) {
        return true;
      }
    }
    return false;
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
