package org.perftrack.server.dashboard;

import org.springframework.http.HttpStatus;
import org.springframework.web.server.ResponseStatusException;

/** A page about something that does not exist: rendered by the error template as a 404 page. */
public final class PageNotFound extends ResponseStatusException {
  private static final long serialVersionUID = 1L;

  public PageNotFound(String what) {
    super(HttpStatus.NOT_FOUND, what);
  }
}
