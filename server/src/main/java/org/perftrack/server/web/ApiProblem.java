package org.perftrack.server.web;

import java.util.List;
import org.springframework.http.HttpStatus;

/**
 * An error a request caused, with the fields it names; rendered as RFC 9457 problem+json by
 * {@link ApiExceptionHandler}. Thrown by any feature that rejects input.
 */
public class ApiProblem extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** One bad field: a JSON path such as {@code results[3].samples[2]}, or a query parameter name. */
  public record FieldProblem(String field, String message) {}

  private final HttpStatus status;
  private final transient List<FieldProblem> fields;

  public ApiProblem(HttpStatus status, String detail, List<FieldProblem> fields) {
    super(detail);
    this.status = status;
    this.fields = List.copyOf(fields);
  }

  public static ApiProblem badRequest(List<FieldProblem> fields) {
    FieldProblem first = fields.get(0);
    String detail = first.field() + ": " + first.message()
        + (fields.size() > 1 ? " (and " + (fields.size() - 1) + " more)" : "");
    return new ApiProblem(HttpStatus.BAD_REQUEST, detail, fields);
  }

  public static ApiProblem badRequest(String field, String message) {
    return badRequest(List.of(new FieldProblem(field, message)));
  }

  public static ApiProblem notFound(String detail) {
    return new ApiProblem(HttpStatus.NOT_FOUND, detail, List.of());
  }

  public static ApiProblem conflict(String detail) {
    return new ApiProblem(HttpStatus.CONFLICT, detail, List.of());
  }

  public HttpStatus status() {
    return status;
  }

  public List<FieldProblem> fields() {
    return fields;
  }
}
