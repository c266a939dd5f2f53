package org.perftrack.server.web;

import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import org.perftrack.server.problems.InvalidInput;
import org.perftrack.wire.FormatGuess;
import org.perftrack.wire.FormatNames;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.bind.UnsatisfiedServletRequestParameterException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * Errors raised before a REST controller is chosen (no endpoint takes this method or content type) have no
 * controller, so {@link ApiExceptionHandler} does not see them and Spring would answer with its plain error
 * JSON. For {@code /api/**} they are problem details here; for pages the exception is thrown on unchanged
 * and handled as before. {@code POST /api/v1/runs} of a non-JSON body without {@code ?format=} matches
 * neither of its two endpoints: that is a 415, not a missing parameter, unless it looks like another tool's file: then
 * a 400 naming the format to add, as for such a JSON file.
 */
/** Last: a controller's own advice ({@link ApiExceptionHandler}, the pages') comes first. */
@Order(Ordered.LOWEST_PRECEDENCE)
@RestControllerAdvice
class ApiRoutingProblems {

  @ExceptionHandler(HttpMediaTypeNotSupportedException.class)
  ResponseEntity<ProblemDetail> unsupported(HttpMediaTypeNotSupportedException e, HttpServletRequest request)
      throws HttpMediaTypeNotSupportedException {
    if (!isApi(request)) {
      throw e;
    }
    return ResponseEntity.status(HttpStatus.UNSUPPORTED_MEDIA_TYPE)
        .body(ApiExceptionHandler.unsupportedMediaType(e.getContentType(), e.getSupportedMediaTypes(), ""));
  }

  @ExceptionHandler(HttpRequestMethodNotSupportedException.class)
  ResponseEntity<ProblemDetail> method(HttpRequestMethodNotSupportedException e, HttpServletRequest request)
      throws HttpRequestMethodNotSupportedException {
    if (!isApi(request)) {
      throw e;
    }
    ResponseEntity.BodyBuilder answer = ResponseEntity.status(HttpStatus.METHOD_NOT_ALLOWED);
    if (e.getSupportedHttpMethods() != null) {
      answer.allow(e.getSupportedHttpMethods().toArray(org.springframework.http.HttpMethod[]::new));
    }
    return answer.body(ProblemDetail.forStatusAndDetail(HttpStatus.METHOD_NOT_ALLOWED,
        "the method " + e.getMethod() + " is not allowed here"
            + (e.getSupportedMethods() == null ? "" : "; allowed: " + String.join(", ", e.getSupportedMethods()))));
  }

  @ExceptionHandler(UnsatisfiedServletRequestParameterException.class)
  ResponseEntity<ProblemDetail> parameters(UnsatisfiedServletRequestParameterException e, HttpServletRequest request)
      throws UnsatisfiedServletRequestParameterException {
    if (!isApi(request)) {
      throw e;
    }
    MediaType sent = contentType(request);
    String tool = request.getRequestURI().equals("/api/v1/runs") ? toolOf(request) : null;
    if (tool != null) { // another tool's file without ?format=, whatever its content type: named as JSON files are
      InvalidInput named = new InvalidInput("format", FormatGuess.addFormat(tool));
      return ApiExceptionHandler.problem(HttpStatus.BAD_REQUEST, named.getMessage(), named.fields());
    }
    if (request.getContentLengthLong() != 0 && (sent == null || !isJson(sent))) {
      String hint = request.getRequestURI().equals("/api/v1/runs")
          ? " (or another tool's file with ?format=" + String.join(", ", org.perftrack.wire.FormatNames.ALL.subList(1,
              org.perftrack.wire.FormatNames.ALL.size())) + ")" : "";
      return ResponseEntity.status(HttpStatus.UNSUPPORTED_MEDIA_TYPE)
          .body(ApiExceptionHandler.unsupportedMediaType(sent, List.of(MediaType.APPLICATION_JSON), hint));
    }
    return ResponseEntity.badRequest().body(ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST,
        "the query parameters do not fit this endpoint: " + String.join(" or ", e.getParamConditions())));
  }

  /** The tool whose file the body's start looks like (not a perftrack run), or null; the body is not read after. */
  private static String toolOf(HttpServletRequest request) {
    try {
      String tool = FormatGuess.guess(request.getInputStream().readNBytes(SNIFFED));
      return tool == null || tool.equals(FormatNames.PERFTRACK) ? null : tool;
    } catch (java.io.IOException | IllegalStateException e) {
      return null; // already read, or cut: the 415 below says what to send
    }
  }

  /** As much of a body as the sniffer looks at (as for a JSON body, ToolFileAdvice). */
  private static final int SNIFFED = 1 << 20;

  private static boolean isApi(HttpServletRequest request) {
    return request.getRequestURI().startsWith("/api/");
  }

  private static boolean isJson(MediaType type) {
    return MediaType.APPLICATION_JSON.includes(type) || type.getSubtype().endsWith("+json");
  }

  private static MediaType contentType(HttpServletRequest request) {
    String header = request.getHeader(HttpHeaders.CONTENT_TYPE);
    try {
      return header == null ? null : MediaType.parseMediaType(header);
    } catch (InvalidMediaTypeException e) {
      return null;
    }
  }
}
