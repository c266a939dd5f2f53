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

  /** A query or path parameter left out: "head: is required". */
  public static InvalidInput missingParameter(String name) {
    return new InvalidInput(name, "is required");
  }

  /**
   * A query or path parameter that is not of its type, said in the caller's terms, never as a Java type:
   * "limit: must be a whole number, got: abc".
   */
  public static InvalidInput parameterOfWrongType(String name, Class<?> type, Object value) {
    return new InvalidInput(name, "must be " + expected(type) + ", got: " + value);
  }

  private static String expected(Class<?> type) {
    if (type == null) {
      return "a valid value";
    }
    if (type == int.class || type == Integer.class || type == long.class || type == Long.class
        || type == short.class || type == Short.class) {
      return "a whole number";
    }
    if (type == double.class || type == Double.class || type == float.class || type == Float.class) {
      return "a number";
    }
    if (type == boolean.class || type == Boolean.class) {
      return "true or false";
    }
    if (type == java.util.UUID.class) {
      return "a UUID";
    }
    if (type.isEnum()) {
      StringBuilder names = new StringBuilder();
      for (Object c : type.getEnumConstants()) {
        names.append(names.isEmpty() ? "" : ", ").append(c.toString().toLowerCase(java.util.Locale.ROOT));
      }
      return "one of " + names;
    }
    if (java.time.temporal.Temporal.class.isAssignableFrom(type)) {
      return "a date and time such as 2007-03-07T19:00:00Z";
    }
    return "a valid value";
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
