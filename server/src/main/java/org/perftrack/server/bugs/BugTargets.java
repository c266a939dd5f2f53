package org.perftrack.server.bugs;

import jakarta.servlet.http.HttpServletRequest;
import org.perftrack.server.detection.Regressions;
import org.perftrack.server.problems.NotFound;
import org.perftrack.server.summaries.Summaries;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.HandlerMapping;

/**
 * What a bugs address ({@code …/regressions/{id}/bugs}, {@code …/summaries/{id}/bugs}, in the API and on the pages)
 * is about, and that it exists: one handler serves both.
 */
@Component
class BugTargets {

  private final Regressions regressions;
  private final Summaries summaries;

  BugTargets(Regressions regressions, Summaries summaries) {
    this.regressions = regressions;
    this.summaries = summaries;
  }

  /** A summary when the mapping that took the request names summaries, else a regression. */
  static Bugs.About about(HttpServletRequest request) {
    Object pattern = request.getAttribute(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE);
    return String.valueOf(pattern).contains("/summaries/") ? Bugs.About.SUMMARY : Bugs.About.REGRESSION;
  }

  /** The id of a regression or summary that exists; a 404 naming it otherwise (as a page or a problem). */
  long existing(Bugs.About about, long id) {
    boolean found = about == Bugs.About.SUMMARY ? summaries.find(id).isPresent() : regressions.find(id).isPresent();
    if (!found) {
      throw new NotFound("no " + about.wire() + " " + id);
    }
    return id;
  }
}
