package org.perftrack.server.problems;

/** The request clashes with the state it meant to change (a lease another holder took over); the REST API answers 409. */
public class Conflict extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final transient java.util.List<InvalidInput.FieldProblem> fields;

  public Conflict(String detail) {
    this(detail, java.util.List.of());
  }

  /** A clash with the state of named fields of the request (an upload to a deleted product names "product"). */
  public Conflict(String detail, java.util.List<InvalidInput.FieldProblem> fields) {
    super(detail);
    this.fields = java.util.List.copyOf(fields);
  }

  public java.util.List<InvalidInput.FieldProblem> fields() {
    return fields;
  }
}
