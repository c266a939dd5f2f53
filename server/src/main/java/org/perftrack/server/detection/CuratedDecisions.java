package org.perftrack.server.detection;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The reconciler's decisions when a person changed the data (excluded, deleted or restored runs): a step found again
 * is reopened with that change as its reason, and an open step of the judged range that is no longer found is
 * withdrawn with it: it stood on the data that changed.
 */
final class CuratedDecisions {

  private CuratedDecisions() {}

  static List<Decision> of(List<Decision> decisions, DetectionResult result, List<RecordedRegression> stored,
      String reason) {
    if (result.isEmpty()) {
      return decisions;
    }
    List<Decision> out = new ArrayList<>(decisions.size());
    Set<Long> decided = new HashSet<>();
    for (Decision d : decisions) {
      if (d.regressionId() != null) {
        decided.add(d.regressionId());
      }
      out.add(d.action() == Decision.Action.REOPEN
          ? new Decision(Decision.Action.REOPEN, d.regressionId(), d.step(), reason, d.confirms()) : d);
    }
    List<String> versions = result.versions();
    int from = versions.indexOf(result.fromVersion());
    int to = versions.indexOf(result.toVersion());
    for (RecordedRegression r : stored) {
      int at = versions.indexOf(r.version());
      if (r.status() == Regression.Status.OPEN && !decided.contains(r.id()) && at >= from && at <= to) {
        out.add(Decision.withdraw(r.id(), reason));
      }
    }
    return out;
  }
}
