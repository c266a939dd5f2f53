package org.perftrack.server.alerts;

import java.time.Duration;
import java.util.List;
import org.perftrack.server.detection.Regression;

/**
 * How long the mail announcing these regressions waits for an answer that is on its way (the lab about to settle
 * where a step starts), so that people get the settled answer once. {@link Duration#ZERO}: no reason to wait.
 */
public interface MailHold {

  Duration holdFor(List<Regression> regressions);
}
