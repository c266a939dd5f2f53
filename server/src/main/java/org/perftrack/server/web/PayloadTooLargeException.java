package org.perftrack.server.web;

import org.perftrack.wire.Quantities;

/** A request body over the configured limit (answered with 413). */
public class PayloadTooLargeException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public PayloadTooLargeException(long limit) {
    super("the request body is larger than the limit of " + Quantities.count(limit) + " bytes");
  }
}
