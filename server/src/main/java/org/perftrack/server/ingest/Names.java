package org.perftrack.server.ingest;

import java.util.List;
import org.perftrack.server.problems.InvalidInput.FieldProblem;

/** The rules every name that agents send must follow (they end up in URLs, mails and pages). */
final class Names {

  static final int MAX_NAME = 128;

  private Names() {}

  /** Adds a problem for {@code field} when {@code value} is not a valid name; true when it is valid. */
  static boolean check(String field, String value, List<FieldProblem> problems) {
    if (value == null) {
      problems.add(new FieldProblem(field, "is required"));
      return false;
    }
    return checkText(field, value, MAX_NAME, true, problems);
  }

  /** Free text (OS name, attribute value): optional, bounded, no control characters. */
  static boolean checkText(String field, String value, int max, boolean required, List<FieldProblem> problems) {
    if (value == null) {
      if (required) {
        problems.add(new FieldProblem(field, "is required"));
      }
      return !required;
    }
    if (value.isBlank()) {
      problems.add(new FieldProblem(field, "must not be empty"));
      return false;
    }
    if (value.length() > max) {
      problems.add(new FieldProblem(field, "must be at most " + max + " characters (has " + value.length() + ")"));
      return false;
    }
    for (int i = 0; i < value.length(); i++) {
      if (Character.isISOControl(value.charAt(i))) {
        problems.add(new FieldProblem(field, "must not contain control characters (found U+"
            + String.format("%04X", (int) value.charAt(i)) + " at " + i + ")"));
        return false;
      }
    }
    return true;
  }
}
