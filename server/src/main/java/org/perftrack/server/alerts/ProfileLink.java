package org.perftrack.server.alerts;

import org.perftrack.server.detection.Regression;

/**
 * Where a regression's profile is shown (its page's "Why" card) once the lab profiled its two versions or is about
 * to: the regression mail and the upload answer (the agent's REGRESSION line)
 * link to it. Implemented where profiles live, so that alerts need not know them.
 */
public interface ProfileLink {

  /** A path on the site ({@code /regressions/12#profile}), or null when no profile is done, queued or running. */
  String path(Regression r);
}
