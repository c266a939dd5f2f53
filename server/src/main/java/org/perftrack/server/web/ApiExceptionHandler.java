package org.perftrack.server.web;

import java.util.List;
import org.perftrack.server.problems.Conflict;
import org.perftrack.server.problems.InvalidInput;
import org.perftrack.server.problems.NotFound;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;
import tools.jackson.core.JacksonException;

/**
 * Every error of the REST API as RFC 9457 problem+json; a {@code fields} property lists each bad
 * field by JSON path. Never a stack trace. The one place that maps the services' domain exceptions
 * ({@code problems.NotFound}, {@code problems.InvalidInput}) to HTTP.
 */
@RestControllerAdvice(annotations = org.springframework.web.bind.annotation.RestController.class)
class ApiExceptionHandler extends ResponseEntityExceptionHandler {

  private static final Logger log = LoggerFactory.getLogger(ApiExceptionHandler.class);

  @ExceptionHandler(ApiProblem.class)
  ResponseEntity<ProblemDetail> apiProblem(ApiProblem e) {
    ProblemDetail pd = ProblemDetail.forStatusAndDetail(e.status(), e.getMessage());
    if (!e.fields().isEmpty()) {
      pd.setProperty("fields", e.fields());
    }
    return ResponseEntity.status(e.status()).body(pd);
  }

  @ExceptionHandler(NotFound.class)
  ResponseEntity<ProblemDetail> notFound(NotFound e) {
    return apiProblem(ApiProblem.notFound(e.getMessage()));
  }

  @ExceptionHandler(Conflict.class)
  ResponseEntity<ProblemDetail> conflict(Conflict e) {
    return apiProblem(ApiProblem.conflict(e.getMessage()));
  }

  @ExceptionHandler(InvalidInput.class)
  ResponseEntity<ProblemDetail> invalidInput(InvalidInput e) {
    return apiProblem(ApiProblem.badRequest(
        e.fields().entrySet().stream().map(f -> new ApiProblem.FieldProblem(f.getKey(), f.getValue())).toList()));
  }

  @ExceptionHandler(PayloadTooLargeException.class)
  ResponseEntity<ProblemDetail> tooLarge(PayloadTooLargeException e) {
    return ResponseEntity.status(HttpStatus.CONTENT_TOO_LARGE)
        .body(ProblemDetail.forStatusAndDetail(HttpStatus.CONTENT_TOO_LARGE, e.getMessage()));
  }

  @ExceptionHandler(Exception.class)
  ResponseEntity<ProblemDetail> unexpected(Exception e) {
    log.error("unexpected error in the REST API", e);
    return ResponseEntity.status(HttpStatus.INTERNAL_SERVER_ERROR).body(ProblemDetail.forStatusAndDetail(
        HttpStatus.INTERNAL_SERVER_ERROR, "internal error; the server log has the details"));
  }

  /** Malformed JSON, a wrong type, a body too large: say where, in the caller's terms. */
  @Override
  protected ResponseEntity<Object> handleHttpMessageNotReadable(
      HttpMessageNotReadableException ex, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
    for (Throwable t = ex; t != null; t = t.getCause()) {
      if (t instanceof PayloadTooLargeException tooLarge) {
        return ResponseEntity.status(HttpStatus.CONTENT_TOO_LARGE)
            .body(ProblemDetail.forStatusAndDetail(HttpStatus.CONTENT_TOO_LARGE, tooLarge.getMessage()));
      }
    }
    String field = "body";
    String message = "is not valid JSON";
    if (ex.getCause() instanceof JacksonException je) {
      String path = path(je.getPath());
      field = path.isEmpty() ? "body" : path;
      message = describe(je);
    } else if (ex.getMessage() != null && ex.getMessage().startsWith("Required request body is missing")) {
      message = "is required";
    }
    ProblemDetail pd = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, field + ": " + message);
    pd.setProperty("fields", List.of(new ApiProblem.FieldProblem(field, message)));
    return ResponseEntity.badRequest().body(pd);
  }

  private static String describe(JacksonException je) {
    String original = je.getOriginalMessage() == null ? "" : je.getOriginalMessage();
    if (je instanceof tools.jackson.core.exc.StreamReadException) {
      return "is not valid JSON: " + firstLine(original);
    }
    return "has the wrong type: " + firstLine(original);
  }

  private static String firstLine(String s) {
    int nl = s.indexOf('\n');
    String line = nl < 0 ? s : s.substring(0, nl);
    return line.length() > 300 ? line.substring(0, 300) + "…" : line;
  }

  static String path(List<JacksonException.Reference> refs) {
    StringBuilder sb = new StringBuilder();
    for (JacksonException.Reference r : refs) {
      if (r.getPropertyName() != null) {
        if (!sb.isEmpty()) {
          sb.append('.');
        }
        sb.append(r.getPropertyName());
      } else if (r.getIndex() >= 0) {
        sb.append('[').append(r.getIndex()).append(']');
      }
    }
    return sb.toString();
  }
}
