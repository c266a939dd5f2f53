package org.perftrack.server.ingest;

import java.util.List;
import org.perftrack.server.problems.InvalidInput.FieldProblem;

/** The rules every name that agents send must follow (they end up in URLs, mails and pages). */
final class Names {

  static final int MAX_NAME = 128;

  /**
   * Benchmark names are longer: JMH class + {@code @Param} names and hyperfine commands run to hundreds of
   * characters and a CI job cannot shorten them. The byte bound keeps a name inside one B-tree index entry
   * (PostgreSQL's limit is about 2,700 bytes; the series key also holds the metric).
   */
  static final int MAX_BENCHMARK = 1000;
  static final int MAX_BENCHMARK_BYTES = 2000;

  private Names() {}

  /** Adds a problem for {@code field} when {@code value} is not a valid name; true when it is valid. */
  static boolean check(String field, String value, List<FieldProblem> problems) {
    if (value == null) {
      problems.add(new FieldProblem(field, "is required"));
      return false;
    }
    return checkText(field, value, MAX_NAME, true, problems);
  }

  /** A benchmark name: required, at most {@link #MAX_BENCHMARK} characters, no control characters. */
  static boolean checkBenchmark(String field, String value, List<FieldProblem> problems) {
    if (value == null) {
      problems.add(new FieldProblem(field, "is required"));
      return false;
    }
    if (!checkText(field, value, MAX_BENCHMARK, true, problems)) {
      return false;
    }
    int bytes = value.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
    if (bytes > MAX_BENCHMARK_BYTES) {
      problems.add(new FieldProblem(field, "must be at most " + MAX_BENCHMARK_BYTES + " bytes in UTF-8 (has " + bytes + ")"));
      return false;
    }
    return true;
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
