package org.perftrack.server.detection;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import org.perftrack.server.stats.Robust;
import org.perftrack.server.stats.StudentT;

/**
 * The detector's view of one series around a changed version: the versions within 2 × window of it,
 * their levels and noise, and the candidate steps among the versions whose judgement can change
 * ({@code lo..hi}: every version whose before- or after-window contains the changed one). Candidates
 * come from the scan over version levels and from the interleaved sessions ({@link PairedEvidence});
 * where both see a step, the stronger evidence counts, and an interleaved pair of adjacent versions
 * places it exactly.
 */
record LocalScan(SeriesUpdate update, Levels levels, NoiseModel noise, int lo, int hi,
         List<Candidate> candidates, double[] pValues, double minEffect, List<PairedEvidence.Found> paired) {

  /**
   * A step at {@code index} of the local window: log shift, scan-corrected p-value, and whether it is
   * a clean step (samples of an interleaved session completely separated by a wide margin), which
   * needs no other evidence. {@code suspects}: the versions it may start at (only {@code index} when placed).
   */
  record Candidate(int index, double shift, double p, boolean clean, boolean paired, boolean newest, boolean pooled,
      StepLocation.Suspects suspects) {

    Candidate(int index, double shift, double p, boolean clean, boolean paired, boolean newest, boolean pooled) {
      this(index, shift, p, clean, paired, newest, pooled, StepLocation.Suspects.at(index));
    }
  }

  static LocalScan of(SeriesUpdate update) {
    SeriesHistory series = update.series();
    int j = series.indexOf(update.changedVersion());
    if (j < 0) {
      throw new IllegalArgumentException("changedVersion " + update.changedVersion() + " is not in the series");
    }
    int w = update.settings().window();
    int from = Math.max(0, j - 2 * w);
    List<VersionPoint> local = series.points().subList(from, Math.min(series.points().size(), j + 2 * w + 1));
    if (update.settings().ignored() || local.size() < 2 || !Levels.allPositive(local)) {
      return null;
    }
    Levels levels = Levels.of(local);
    NoiseModel noise = NoiseModel.estimate(levels);
    double minChange = Math.log1p(update.settings().minChange());
    double minEffect = Math.max(minChange, update.settings().noiseMultiple() * noise.sigma());
    int jj = j - from;
    int lo = Math.max(1, jj - w + 1);
    int hi = Math.min(local.size() - 1, jj + w);
    List<Candidate> found = new ArrayList<>();
    List<Integer> decided = new ArrayList<>();
    for (StepScan.Candidate c : new StepScan(levels.x(), noise.sigma(), w, minEffect).run()) {
      double p = c.index() == levels.size() - 1 && c.index() >= NoiseModel.MIN_HISTORY ? newestP(levels, c)
          : Math.min(1, effectivePositions(c) * StudentT.twoSidedP(c.t(), noise.df()));
      if (c.index() >= lo && c.index() <= hi) {
        found.add(new Candidate(c.index(), c.shift(), p, false, false, c.index() == levels.size() - 1, false));
      }
      if (p <= Detector.MAX_P || c.index() == levels.size() - 1 && p <= Detector.NEWEST_MAX_P) {
        decided.add(c.index());
      }
    }
    List<PairedEvidence.Found> paired = PairedEvidence.find(series, from, levels, lo, hi, minChange);
    found.removeIf(c -> contradicted(c, paired));
    for (PairedEvidence.Found f : paired) {
      if (f.p() <= VETO_P || f.clean()) {
        merge(found, f);
        decided.add(f.index());
      }
    }
    if (!interleaved(series)) {
      pool(found, levels, decided, jj, minEffect);
    }
    located(found, levels, decided, noise.sigma(), w);
    found.sort(Comparator.comparingInt(Candidate::index));
    double[] p = found.stream().mapToDouble(Candidate::p).toArray();
    return new LocalScan(update, levels, noise, lo, hi, List.copyOf(found), p, minEffect, paired);
  }

  /**
   * Places the steps found by the levels alone ({@link StepLocation}): one whose place is spread over more
   * neighbouring versions than {@link StepLocation#MAX_SUSPECTS} waits for later versions; the others are moved to
   * their likeliest version and carry their suspects (with those of the pooled scan, when it found them). Of two
   * candidates placed at one version, the one with the smaller p-value stays.
   */
  private static void located(List<Candidate> found, Levels levels, List<Integer> decided, double sigma, int w) {
    for (int i = found.size() - 1; i >= 0; i--) {
      Candidate c = found.get(i);
      if (c.clean() || c.paired() || c.newest()) {
        continue;
      }
      StepLocation.Suspects s = StepLocation.suspects(levels.x(), c.index(), decided, sigma, w,
          c.pooled() ? PooledScan.MAX_SUSPECTS : StepLocation.MAX_SUSPECTS);
      if (s == null) {
        found.remove(i);
        continue;
      }
      StepLocation.Suspects both = c.pooled() && c.suspects().best() == s.best() ? s.union(c.suspects()) : s;
      if (both.best() >= levels.size() - 1) {
        found.remove(i);
        continue;
      }
      found.set(i, new Candidate(both.best(), c.shift(), c.p(), false, false, false, c.pooled(), both));
    }
    for (int i = found.size() - 1; i >= 0; i--) {
      Candidate c = found.get(i);
      for (int j = 0; j < found.size(); j++) {
        Candidate o = found.get(j);
        if (j != i && o.index() == c.index() && (o.p() < c.p() || o.p() == c.p() && j < i)) {
          found.remove(i);
          break;
        }
      }
    }
  }

  /**
   * A step the scan sees between versions that were measured interleaved, while the interleaved samples
   * show no step there (not even half of it, or not at {@value #VETO_P}): what differs is the sessions,
   * not the versions.
   */
  private static boolean contradicted(Candidate c, List<PairedEvidence.Found> paired) {
    for (PairedEvidence.Found f : paired) {
      if (f.index() == c.index() || (f.span() > 1 && Math.abs(f.index() - c.index()) < f.span())) {
        return f.shift() * Math.signum(c.shift()) < Math.abs(c.shift()) / 2 || f.p() > VETO_P;
      }
    }
    return false;
  }

  /** Paired evidence weaker than this cannot confirm a step the scan found between interleaved versions. */
  static final double VETO_P = 0.01;

  /**
   * Adds the evidence of interleaved sessions: a scan candidate of the same sign at the same version (or,
   * when the interleaved versions were not adjacent, between them) takes the paired p-value when it is
   * smaller; otherwise the paired step is a new candidate.
   */
  private static void merge(List<Candidate> found, PairedEvidence.Found f) {
    for (int i = 0; i < found.size(); i++) {
      Candidate c = found.get(i);
      boolean near = c.index() == f.index() || (f.span() > 1 && Math.abs(c.index() - f.index()) < f.span());
      if (near && Math.signum(c.shift()) == Math.signum(f.shift())) {
        found.set(i, new Candidate(c.index(), c.shift(), Math.min(c.p(), f.p()), f.clean(), true, c.newest(), false));
        return;
      }
    }
    found.add(new Candidate(f.index(), f.shift(), f.p(), f.clean(), true, false, false));
  }

  /**
   * Judges the segment the changed version fell in (between the steps already decided, within the window) on all
   * its versions ({@link PooledScan}); when the changed version is itself a decided step, the segment that ends
   * there too. A pooled step at a version the scan also proposed, with the same sign, replaces that candidate
   * when its p-value is smaller; otherwise it is a candidate of its own, which may lie before {@code lo}: the
   * versions since have made it clearer.
   */
  private static void pool(List<Candidate> found, Levels levels, List<Integer> decided, int changed,
      double minEffect) {
    int n = levels.size();
    int start = 0;
    int end = n;
    for (int d : decided) {
      if (d <= changed && d > start) {
        start = d;
      }
      if (d > changed && d < end) {
        end = d;
      }
    }
    double floor = PooledScan.WITHIN_FLOOR * levels.pooledWithinSe();
    addPooled(found, PooledScan.find(levels.x(), start, end, minEffect, floor, levels.within()), n);
    if (start == changed && start > 0) {
      int before = 0;
      for (int d : decided) {
        if (d < start && d > before) {
          before = d;
        }
      }
      addPooled(found, PooledScan.find(levels.x(), before, start, minEffect, floor, levels.within()), n);
    }
  }

  /**
   * Whether some of the series was measured in interleaved sessions (a batch of two versions or more): on such a
   * machine the sessions' levels differ by more than the versions do, and a session's versions share its factor, so
   * the levels of different sessions are not independent values to pool.
   */
  private static boolean interleaved(SeriesHistory series) {
    java.util.Map<String, String> firstVersion = new java.util.HashMap<>();
    for (BatchRun r : series.batchRuns()) {
      String seen = firstVersion.putIfAbsent(r.batch(), r.version());
      if (seen != null && !seen.equals(r.version())) {
        return true;
      }
    }
    return false;
  }

  private static void addPooled(List<Candidate> found, PooledScan.Found f, int n) {
    if (f == null) {
      return;
    }
    for (int i = 0; i < found.size(); i++) {
      Candidate c = found.get(i);
      if (c.index() == f.index()) {
        if (Math.signum(c.shift()) == Math.signum(f.shift()) && f.p() < c.p() && !c.clean()) {
          found.set(i, new Candidate(c.index(), c.shift(), f.p(), false, c.paired(), c.newest(), true, f.suspects()));
        }
        return;
      }
    }
    found.add(new Candidate(f.index(), f.shift(), f.p(), false, false, f.index() == n - 1, true, f.suspects()));
  }

  /**
   * How many independent tests the scan over {@code positions} versions made: neighbouring windows of n versions
   * share all but one of them, so a scan is worth about one test per half window, not one per version.
   */
  static double effectivePositions(StepScan.Candidate c) {
    double span = Math.max(1, Math.min(c.nBefore(), c.nAfter()) / 2.0);
    return Math.max(1, c.positions() / span);
  }

  /**
   * A step at the newest version is judged against the spread between the builds before it: the newest version's
   * own difference from its predecessor is what is being tested, so it must not widen the noise it is tested by.
   * (With a shorter history than the noise model uses, the prior decides either way.)
   */
  private static double newestP(Levels levels, StepScan.Candidate c) {
    NoiseModel before = NoiseModel.estimate(levels.prefix(levels.size() - 1));
    double se = before.sigma() * Math.sqrt(StepScan.HL_VARIANCE * (1.0 / c.nBefore() + 1.0 / c.nAfter()));
    return StudentT.twoSidedP(c.shift() / se, before.df());
  }

  /**
   * The step as recorded: the version pair's own levels (trimmed means of all their samples), so that
   * the record, the compare page and the API quote the same numbers; the kind follows the step's shift.
   * When the pair moved against its segment (noise between two sessions), the segment's levels are
   * used instead, so that a regression never shows a ratio of an improvement.
   */
  Step toStep(int i) {
    Candidate c = candidates.get(i);
    double[] x = levels.x();
    double baselineLog = x[c.index() - 1];
    double valueLog = x[c.index()];
    if ((valueLog - baselineLog) * c.shift() <= 0) {
      int segmentFrom = Math.max(0, c.index() - update.settings().window());
      baselineLog = Robust.median(x, segmentFrom, c.index());
      valueLog = baselineLog + c.shift();
    }
    double baseline = Math.exp(baselineLog);
    double value = Math.exp(valueLog);
    Regression.Kind kind = update.series().direction().isWorse(c.shift()) ? Regression.Kind.REGRESSION
        : Regression.Kind.IMPROVEMENT;
    return new Step(levels.versions().get(c.index() - 1), levels.versions().get(c.index()),
        baseline, value, value / baseline, pValues[i], kind, evidence(c), c.index() < levels.size() - 1,
        levels.versions().get(Math.max(1, c.suspects().first())),
        levels.versions().get(Math.min(levels.size() - 1, c.suspects().last())));
  }

  private String evidence(Candidate c) {
    if (c.clean()) {
      return "interleaved samples do not overlap (clean step)";
    }
    if (c.paired()) {
      return "interleaved sessions, compared round by round";
    }
    if (c.pooled()) {
      return String.format(java.util.Locale.ROOT, "levels of all versions on each side up to the next step"
          + " (between-session noise ±%.1f%%)", 100 * noise.sigma());
    }
    return String.format(java.util.Locale.ROOT, "levels of %d versions (between-session noise ±%.1f%%)",
        levels.size(), 100 * noise.sigma());
  }

  DetectionResult result(List<Step> steps) {
    java.util.Map<String, DetectionResult.Interleaved> interleaved = new java.util.HashMap<>();
    for (PairedEvidence.Found f : paired) {
      if (f.span() == 1) {
        interleaved.put(levels.versions().get(f.index()), new DetectionResult.Interleaved(f.shift(), f.p(), f.clean()));
      }
    }
    return new DetectionResult(steps, levels.versions().get(lo), levels.versions().get(hi),
        levels.versions(), levels.values(), noise.sigma(), update.settings().window(), minEffect, levels.withinSe(),
        interleaved);
  }
}
