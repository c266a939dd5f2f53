package org.perftrack.server.problems;

/** The request clashes with the state it meant to change (a lease another holder took over); the REST API answers 409. */
public class Conflict extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public Conflict(String detail) {
    super(detail);
  }
}
