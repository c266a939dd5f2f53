package org.perftrack.server.problems;

/** A request contradicts what is already stored; the REST API answers 409 (web/ApiExceptionHandler). */
public class Conflict extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public Conflict(String detail) {
    super(detail);
  }
}
