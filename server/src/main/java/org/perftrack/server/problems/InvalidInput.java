package org.perftrack.server.problems;

import java.util.List;
import java.util.Map;

/**
 * Input a service rejects, by field (a JSON path such as {@code results[3].unit}, or a parameter
 * name); the REST API answers 400 with each field named (web/ApiExceptionHandler), a form shows them.
 */
public class InvalidInput extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** One bad field and what is wrong with it; the problem+json {@code fields} items have this shape. */
  public record FieldProblem(String field, String message) {}

  private final transient List<FieldProblem> fields;

  /** {@code fields}: in the order to report them; at least one. The detail names the first. */
  public InvalidInput(List<FieldProblem> fields) {
    this(describe(fields), fields);
  }

  public InvalidInput(String detail, List<FieldProblem> fields) {
    super(detail);
    this.fields = List.copyOf(fields);
  }

  /** {@code fields}: field → what is wrong with it, in the order to report them; at least one. */
  public InvalidInput(Map<String, String> fields) {
    this(fields.entrySet().stream().map(e -> new FieldProblem(e.getKey(), e.getValue())).toList());
  }

  public InvalidInput(String field, String message) {
    this(List.of(new FieldProblem(field, message)));
  }

  public List<FieldProblem> fields() {
    return fields;
  }

  private static String describe(List<FieldProblem> fields) {
    FieldProblem first = fields.get(0);
    return first.field() + ": " + first.message()
        + (fields.size() > 1 ? " (and " + (fields.size() - 1) + " more)" : "");
  }
}
