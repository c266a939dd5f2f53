package org.perftrack.server.detection;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Pure re-judgement of one series: matches freshly detected steps with the stored records whose
 * version lies in the re-judged range (or near a step found before it), so that one step keeps one record across
 * uploads. A record
 * matches a step of the same kind when the step falls inside its old version pair (a backfilled
 * version split that pair), among its suspect versions (later versions placed a step reported as a range), or
 * within {@value #NEAR} versions of it (more data moved the split). A match keeps the record: its place, and its
 * range of suspect versions, follow the step. An open
 * record that no step matches any more is withdrawn only when later data contradicts it
 * ({@link WithdrawalReason#contradiction}); a step that merely lost significance stays open.
 */
public final class Reconciler {
  static final int NEAR = 2;

  private record Match(RecordedRegression record, Step step, int distance) {
  }

  /** {@link #reconcile(DetectionResult, List, String)} of a series without a unit (pure numbers). */
  public List<Decision> reconcile(DetectionResult result, List<RecordedRegression> recorded) {
    return reconcile(result, recorded, "1");
  }

  /** The decisions for one series' stored records; a withdrawal's reason names levels in {@code unit}. */
  public List<Decision> reconcile(DetectionResult result, List<RecordedRegression> recorded, String unit) {
    if (result.isEmpty()) {
      return List.of();
    }
    List<String> versions = result.versions();
    int from = versions.indexOf(result.fromVersion());
    int to = versions.indexOf(result.toVersion());
    // a step judged on its whole segment may lie before the re-judged range: records near it can match it
    int matchFrom = from;
    for (Step s : result.steps()) {
      matchFrom = Math.min(matchFrom, versions.indexOf(s.version()) - NEAR);
    }
    int lowest = matchFrom;
    List<RecordedRegression> inRange = recorded.stream().filter(r -> {
      int p = versions.indexOf(r.version());
      return p >= lowest && p <= to;
    }).toList();
    List<Decision> decisions = new ArrayList<>();
    Set<RecordedRegression> usedRecords = new HashSet<>();
    Set<Step> usedSteps = new HashSet<>();
    for (Match m : candidates(inRange, result.steps(), versions)) {
      if (usedRecords.contains(m.record()) || usedSteps.contains(m.step())) {
        continue;
      }
      usedRecords.add(m.record());
      usedSteps.add(m.step());
      decisions.add(matched(m.record(), m.step()));
    }
    for (Step step : result.steps()) {
      if (!usedSteps.contains(step)) {
        decisions.add(Decision.create(step));
      }
    }
    for (RecordedRegression r : inRange) {
      if (!usedRecords.contains(r) && r.status() == Regression.Status.OPEN && versions.indexOf(r.version()) >= from) {
        String contradiction = WithdrawalReason.contradiction(r, result, unit);
        if (contradiction != null) {
          decisions.add(Decision.withdraw(r.id(), contradiction));
        }
      }
    }
    return decisions;
  }

  private static List<Match> candidates(List<RecordedRegression> records, List<Step> steps, List<String> versions) {
    List<Match> matches = new ArrayList<>();
    for (RecordedRegression r : records) {
      int rv = versions.indexOf(r.version());
      int rb = versions.indexOf(r.baselineVersion());
      for (Step s : steps) {
        int sv = versions.indexOf(s.version());
        boolean insidePair = rb >= 0 && sv > rb && sv <= rv;
        int rf = versions.indexOf(r.firstSuspect());
        int rl = versions.indexOf(r.lastSuspect());
        boolean suspected = rf >= 0 && rl >= 0 && sv >= rf && sv <= rl;
        if (s.kind() == r.kind() && (insidePair || suspected || Math.abs(sv - rv) <= NEAR)) {
          matches.add(new Match(r, s, Math.abs(sv - rv)));
        }
      }
    }
    matches.sort(Comparator.comparingInt((Match m) -> m.record().status() == Regression.Status.WITHDRAWN ? 1 : 0)
        .thenComparingInt(Match::distance));
    return matches;
  }

  private static Decision matched(RecordedRegression r, Step s) {
    boolean confirms = !r.confirmed() && s.confirmed();
    if (r.status() == Regression.Status.WITHDRAWN) {
      return new Decision(Decision.Action.REOPEN, r.id(), s, "detected again with more versions", confirms);
    }
    boolean samePair = r.version().equals(s.version()) && r.baselineVersion().equals(s.baselineVersion());
    boolean sameSuspects = r.firstSuspect().equals(s.firstSuspect()) && r.lastSuspect().equals(s.lastSuspect());
    String was = Regression.place(r.version(), r.firstSuspect(), r.lastSuspect());
    String now = Regression.place(s.version(), s.firstSuspect(), s.lastSuspect());
    // "placed between 1.11 and 1.12 (most likely 1.12); it was between 1.11 and 1.13 (most likely 1.12)"
    String placed = "placed " + (s.ranged() ? now : "at " + now) + "; it was " + (r.firstSuspect()
        .equals(r.lastSuspect()) ? "at " + was : was);
    if (samePair) {
      return new Decision(Decision.Action.CONFIRM, r.id(), s, sameSuspects ? null : placed, confirms);
    }
    if (!r.firstSuspect().equals(r.lastSuspect())) {
      return new Decision(Decision.Action.REATTRIBUTE, r.id(), s, placed, confirms);
    }
    return new Decision(Decision.Action.REATTRIBUTE, r.id(), s, "moved from " + r.baselineVersion()
        + " → " + r.version() + " to " + (s.ranged() ? now : s.baselineVersion() + " → " + s.version()), confirms);
  }
}
