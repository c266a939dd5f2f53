package org.perftrack.server.problems;

/** Something a request named does not exist; the REST API answers 404 (web/ApiExceptionHandler). */
public class NotFound extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public NotFound(String detail) {
    super(detail);
  }
}
