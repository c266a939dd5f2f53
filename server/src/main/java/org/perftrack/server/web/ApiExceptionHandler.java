package org.perftrack.server.web;

import java.util.List;
import org.perftrack.server.problems.Conflict;
import org.perftrack.server.problems.InvalidInput;
import org.perftrack.server.problems.InvalidInput.FieldProblem;
import org.perftrack.server.problems.NotFound;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.TypeMismatchException;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;
import tools.jackson.core.JacksonException;

/**
 * Every error of the REST API as RFC 9457 problem+json; a {@code fields} property lists each bad
 * field by JSON path. Never a stack trace, never a Java type name ({@link JsonProblems}). The one place that maps the services' domain exceptions
 * ({@code problems.NotFound}, {@code problems.InvalidInput}, {@code problems.Conflict}) to HTTP. It
 * comes before the pages' {@code pages.PageProblems}, which a REST controller matches as well.
 */
@Order(Ordered.HIGHEST_PRECEDENCE)
@RestControllerAdvice(annotations = org.springframework.web.bind.annotation.RestController.class)
class ApiExceptionHandler extends ResponseEntityExceptionHandler {

  private static final Logger log = LoggerFactory.getLogger(ApiExceptionHandler.class);

  @ExceptionHandler(NotFound.class)
  ResponseEntity<ProblemDetail> notFound(NotFound e) {
    return problem(HttpStatus.NOT_FOUND, e.getMessage(), List.of());
  }

  @ExceptionHandler(Conflict.class)
  ResponseEntity<ProblemDetail> conflict(Conflict e) {
    return problem(HttpStatus.CONFLICT, e.getMessage(), e.fields());
  }

  @ExceptionHandler(InvalidInput.class)
  ResponseEntity<ProblemDetail> invalidInput(InvalidInput e) {
    return problem(HttpStatus.BAD_REQUEST, e.getMessage(), e.fields());
  }

  static ResponseEntity<ProblemDetail> problem(HttpStatus status, String detail, List<FieldProblem> fields) {
    ProblemDetail pd = ProblemDetail.forStatusAndDetail(status, detail);
    if (!fields.isEmpty()) {
      pd.setProperty("fields", fields);
    }
    return ResponseEntity.status(status).body(pd);
  }

  @ExceptionHandler(PayloadTooLargeException.class)
  ResponseEntity<ProblemDetail> tooLarge(PayloadTooLargeException e) {
    return ResponseEntity.status(HttpStatus.CONTENT_TOO_LARGE)
        .body(ProblemDetail.forStatusAndDetail(HttpStatus.CONTENT_TOO_LARGE, e.getMessage()));
  }

  /** The database is away (lost, restarting): the client sends again later. A commit cut off by the loss may have
   * happened: a run sent again is then answered 200, so the answer does not claim that nothing was stored. */
  @ExceptionHandler({org.springframework.dao.DataAccessResourceFailureException.class,
      org.springframework.dao.TransientDataAccessException.class})
  ResponseEntity<ProblemDetail> databaseUnavailable(Exception e) {
    log.warn("database unavailable: {}", org.springframework.core.NestedExceptionUtils.getMostSpecificCause(e).toString());
    return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).header(HttpHeaders.RETRY_AFTER, "5")
        .body(ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE,
            "the database is unavailable; send again later (a run sent again is stored once)"));
  }

  /** 415: say which content types the endpoint takes, in a problem detail. */
  @Override
  protected ResponseEntity<Object> handleHttpMediaTypeNotSupported(HttpMediaTypeNotSupportedException ex,
      HttpHeaders headers, HttpStatusCode status, WebRequest request) {
    return ResponseEntity.status(HttpStatus.UNSUPPORTED_MEDIA_TYPE).headers(headers)
        .body(unsupportedMediaType(ex.getContentType(), ex.getSupportedMediaTypes(), ""));
  }

  static ProblemDetail unsupportedMediaType(MediaType sent, List<MediaType> supported, String hint) {
    List<MediaType> types = supported.isEmpty() ? List.of(MediaType.APPLICATION_JSON) : supported;
    StringBuilder accepted = new StringBuilder();
    for (MediaType t : types) {
      accepted.append(accepted.isEmpty() ? "" : " or ").append(t.getType()).append('/').append(t.getSubtype());
    }
    String name = sent == null ? "none" : "'" + sent.getType() + "/" + sent.getSubtype() + "'";
    ProblemDetail pd = ProblemDetail.forStatusAndDetail(HttpStatus.UNSUPPORTED_MEDIA_TYPE,
        "the content type " + name + " is not accepted here: send " + accepted + hint);
    pd.setProperty("fields", List.of(new FieldProblem("Content-Type", "must be " + accepted)));
    return pd;
  }

  @ExceptionHandler(Exception.class)
  ResponseEntity<ProblemDetail> unexpected(Exception e) {
    if (DatabaseUnavailableFilter.databaseUnavailable(e)) {
      return databaseUnavailable(e);
    }
    log.error("unexpected error in the REST API", e);
    return ResponseEntity.status(HttpStatus.INTERNAL_SERVER_ERROR).body(ProblemDetail.forStatusAndDetail(
        HttpStatus.INTERNAL_SERVER_ERROR, "internal error; the server log has the details"));
  }

  /** A query parameter left out: named as a bad field of a body is ("head: is required"). */
  @Override
  protected ResponseEntity<Object> handleMissingServletRequestParameter(MissingServletRequestParameterException ex,
      HttpHeaders headers, HttpStatusCode status, WebRequest request) {
    InvalidInput e = InvalidInput.missingParameter(ex.getParameterName());
    return ResponseEntity.badRequest().headers(headers).body(invalidInput(e).getBody());
  }

  /** A query or path parameter that is not of its type ("limit: must be a whole number, got: abc"), never a Java type. */
  @Override
  protected ResponseEntity<Object> handleTypeMismatch(TypeMismatchException ex, HttpHeaders headers,
      HttpStatusCode status, WebRequest request) {
    String name = ex instanceof MethodArgumentTypeMismatchException m ? m.getName()
        : ex.getPropertyName() == null ? "parameter" : ex.getPropertyName();
    InvalidInput e = InvalidInput.parameterOfWrongType(name, ex.getRequiredType(), ex.getValue());
    return ResponseEntity.badRequest().headers(headers).body(invalidInput(e).getBody());
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
      message = JsonProblems.describe(je);
    } else if (ex.getMessage() != null && ex.getMessage().startsWith("Required request body is missing")) {
      message = "is required";
    }
    return ResponseEntity.badRequest().body(
        problem(HttpStatus.BAD_REQUEST, field + ": " + message, List.of(new FieldProblem(field, message))).getBody());
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
