package org.perftrack.server.problems;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Input a service rejects, by field (a JSON path such as {@code results[3].unit}, or a parameter
 * name); the REST API answers 400 with each field named (web/ApiExceptionHandler).
 */
public class InvalidInput extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final transient Map<String, String> fields;

  /** {@code fields}: field → what is wrong with it, in the order to report them; at least one. */
  public InvalidInput(Map<String, String> fields) {
    super(describe(fields));
    this.fields = new LinkedHashMap<>(fields);
  }

  public InvalidInput(String field, String message) {
    this(Map.of(field, message));
  }

  public Map<String, String> fields() {
    return fields;
  }

  private static String describe(Map<String, String> fields) {
    Map.Entry<String, String> first = fields.entrySet().iterator().next();
    return first.getKey() + ": " + first.getValue()
        + (fields.size() > 1 ? " (and " + (fields.size() - 1) + " more)" : "");
  }
}
