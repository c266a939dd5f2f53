package org.perftrack.server.pages;

import org.springframework.http.HttpStatus;
import org.springframework.web.server.ResponseStatusException;

/**
 * A page about something that does not exist: rendered by the error template as a 404 page. When it was deleted
 * (and not purged yet), {@code deleted} says by whom and when, and the page says where an admin restores it.
 */
public final class PageNotFound extends ResponseStatusException {
  private static final long serialVersionUID = 1L;

  private final String deleted;

  public PageNotFound(String what) {
    this(what, null);
  }

  PageNotFound(String what, String deleted) {
    super(HttpStatus.NOT_FOUND, what);
    this.deleted = deleted;
  }

  /** "Product cygwin was deleted by alice at 2026-12-02 10:00 UTC", or null when it was never there. */
  public String deleted() {
    return deleted;
  }
}
