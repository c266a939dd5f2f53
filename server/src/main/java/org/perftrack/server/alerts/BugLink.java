package org.perftrack.server.alerts;

import java.util.List;
import org.perftrack.server.detection.Regression;

/**
 * The bugs filed about a regression (and about its summary), which its mail lists. Implemented where bug links live,
 * so that alerts need not know them.
 */
public interface BugLink {

  /** The bugs' addresses, the regression's first; empty when none. */
  List<String> urls(Regression r);
}
