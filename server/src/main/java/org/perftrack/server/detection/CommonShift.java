package org.perftrack.server.detection;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.perftrack.server.stats.Robust;

/**
 * The shift one job gave all the benchmarks of a run: on a shared CI runner the machine itself is a few percent
 * faster or slower from one job to the next, one factor for every benchmark the job measured. For each version of
 * the window it is the median, over the run's series, of that version's level against the series' own typical
 * level. A series judged relative to it (each version's level divided by its job's common factor) keeps its own
 * changes and loses the runner's, so a step near the newest version is judged against the spread that is left.
 *
 * <p>Used only where it helps and cannot mislead: at least {@value #MIN_SERIES} series of the run reach the newest
 * version; the common factor explains a good part of the series' spread between builds (the relative series'
 * noise at most {@value #LESS_NOISE} of the raw one's), so independent series (a lab whose benchmarks do not move
 * together) are judged as before; and the raw levels move the same way by at least half as much, so a change all
 * benchmarks made together (which the common factor absorbs) never turns the unchanged ones into steps the other
 * way. A step found so still passes every check of the scan (50 % and twice the minimum effect for a step at the
 * newest version, no precedent, the p-value ceiling) on the relative levels.
 */
final class CommonShift {
  /** Fewer series than this in one run say too little about what the job shared. */
  static final int MIN_SERIES = 5;
  /** The relative series must be at most this noisy, against the raw one, for the common factor to be used. */
  static final double LESS_NOISE = 0.8;

  private CommonShift() {
  }

  /**
   * The scans of one run, each with the steps near its newest version that only the common shift shows added as
   * candidates (with the p-value of the relative levels), and the indexes of those candidates per scan.
   */
  record Judged(List<LocalScan> scans, Map<Integer, List<Integer>> relative) {
  }

  static Judged apply(List<SeriesUpdate> updates, List<LocalScan> scans) {
    List<Integer> newest = new ArrayList<>();
    for (int s = 0; s < scans.size(); s++) {
      LocalScan scan = scans.get(s);
      SeriesHistory series = updates.get(s).series();
      if (scan != null && scan.levels().size() > StepChecks.NEWEST_MIN_BEFORE
          && series.points().size() - 1 == series.indexOf(updates.get(s).changedVersion())) {
        newest.add(s);
      }
    }
    if (newest.size() < MIN_SERIES) {
      return new Judged(scans, Map.of());
    }
    Map<String, Double> common = commonFactors(scans, newest);
    List<LocalScan> out = new ArrayList<>(scans);
    Map<Integer, List<Integer>> relative = new HashMap<>();
    for (int s : newest) {
      LocalScan scan = scans.get(s);
      LocalScan rel = relativeScan(updates.get(s), scan, common);
      if (rel == null) {
        continue;
      }
      List<LocalScan.Candidate> candidates = new ArrayList<>(scan.candidates());
      boolean changed = false;
      List<Integer> added = new ArrayList<>();
      int n = scan.levels().size();
      for (int c = 0; c < rel.candidates().size(); c++) {
        LocalScan.Candidate found = rel.candidates().get(c);
        int index = found.index() + (n - rel.levels().size());
        if (index < n - StepChecks.TAIL || found.paired() || !agrees(scan.levels().x(), index, found.shift(),
            scan.update().settings().window())) {
          continue;
        }
        int same = at(candidates, index);
        if (same >= 0 && candidates.get(same).shift() * found.shift() > 0 && !candidates.get(same).paired()
            && found.p() < candidates.get(same).p()) {
          LocalScan.Candidate raw = candidates.get(same);
          candidates.set(same, new LocalScan.Candidate(index, raw.shift(), found.p(), raw.clean(), false,
              raw.newest(), false));
        } else if (same < 0 && !near(scan, index)) {
          candidates.add(new LocalScan.Candidate(index, found.shift(), found.p(), false, false, index == n - 1,
              false));
        } else {
          continue;
        }
        changed = true;
      }
      if (!changed) {
        continue;
      }
      candidates.sort(java.util.Comparator.comparingInt(LocalScan.Candidate::index));
      for (int c = 0; c < candidates.size(); c++) {
        if (!scan.candidates().contains(candidates.get(c))) {
          added.add(c);
        }
      }
      out.set(s, new LocalScan(scan.update(), scan.levels(), scan.noise(), scan.lo(), scan.hi(), candidates,
          candidates.stream().mapToDouble(LocalScan.Candidate::p).toArray(), scan.minEffect(), scan.paired()));
      relative.put(s, added);
    }
    return new Judged(out, relative);
  }

  private static int at(List<LocalScan.Candidate> candidates, int index) {
    for (int i = 0; i < candidates.size(); i++) {
      if (candidates.get(i).index() == index) {
        return i;
      }
    }
    return -1;
  }

  /** Whether the raw scan has a candidate within {@link Reconciler#NEAR} versions of {@code index}. */
  private static boolean near(LocalScan scan, int index) {
    return scan.candidates().stream().anyMatch(c -> Math.abs(c.index() - index) <= Reconciler.NEAR);
  }

  /** The raw levels moved the same way at {@code index}, by at least half the relative shift. */
  private static boolean agrees(double[] x, int index, double shift, int window) {
    double raw = Robust.median(x, index, x.length) - Robust.median(x, Math.max(0, index - window), index);
    return raw * Math.signum(shift) >= Math.abs(shift) / 2;
  }

  /**
   * Per version name: the median over the run's series (that reach the newest version) of the version's level
   * against the series' median level before its newest version; only versions at least {@value #MIN_SERIES}
   * series have.
   */
  private static Map<String, Double> commonFactors(List<LocalScan> scans, List<Integer> newest) {
    Map<String, double[]> deviations = new HashMap<>();
    Map<String, Integer> counts = new HashMap<>();
    for (int s : newest) {
      Levels levels = scans.get(s).levels();
      double[] x = levels.x();
      double typical = Robust.median(x, 0, x.length - 1);
      for (int i = 0; i < x.length; i++) {
        String v = levels.versions().get(i);
        int k = counts.merge(v, 1, Integer::sum) - 1;
        double[] d = deviations.computeIfAbsent(v, key -> new double[newest.size()]);
        d[k] = x[i] - typical;
      }
    }
    Map<String, Double> common = new HashMap<>();
    counts.forEach((v, k) -> {
      if (k >= MIN_SERIES) {
        common.put(v, Robust.median(deviations.get(v), 0, k));
      }
    });
    return common;
  }

  /**
   * The scan of the series' levels relative to the common factors, or null when no version is missing one, the
   * relative series is not clearly quieter, or nothing near its newest version moved by half the 50 % floor.
   */
  private static LocalScan relativeScan(SeriesUpdate update, LocalScan scan, Map<String, Double> common) {
    Levels levels = scan.levels();
    int n = levels.size();
    double[] x = levels.x();
    double[] rel = new double[n];
    for (int i = 0; i < n; i++) {
      Double c = common.get(levels.versions().get(i));
      if (c == null) {
        return null;
      }
      rel[i] = x[i] - c;
    }
    int window = update.settings().window();
    double largest = 0;
    for (int k = Math.max(1, n - StepChecks.TAIL); k < n; k++) {
      double moved = Robust.median(rel, k, n) - Robust.median(rel, Math.max(0, k - window), k);
      largest = Math.max(largest, Math.abs(moved));
    }
    if (largest < Math.log1p(StepChecks.SINGLE_VERSION_MIN_CHANGE) / 2) {
      return null;
    }
    Levels relLevels = new Levels(levels.versions(), rel, levels.withinSe(), levels.withinDf());
    Levels before = levels.prefix(n - 1);
    Levels relBefore = relLevels.prefix(n - 1);
    if (NoiseModel.estimate(relBefore).sigma() > LESS_NOISE * NoiseModel.estimate(before).sigma()) {
      return null;
    }
    List<VersionPoint> points = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      double level = Math.exp(rel[i]);
      points.add(VersionPoint.summarized(levels.versions().get(i), new VersionLevel(level,
          levels.withinSe()[i], true, withinCount(update, levels.versions().get(i)))));
    }
    // the interleaved runs stay: their evidence is within one session, where the job's factor cancels
    return LocalScan.of(new SeriesUpdate(new SeriesHistory(update.series().direction(), points, update.series().batchRuns()),
        update.changedVersion(), update.settings()));
  }

  private static int withinCount(SeriesUpdate update, String version) {
    int i = update.series().indexOf(version);
    return update.series().points().get(i).summary().count();
  }

  /** The evidence a step found relative to the common shift gives in its history. */
  static Step described(Step step) {
    return new Step(step.baselineVersion(), step.version(), step.baselineValue(), step.value(), step.ratio(),
        step.pValue(), step.kind(), step.evidence() + ", against the shift all benchmarks of the run shared",
        step.confirmed(), step.firstSuspect(), step.lastSuspect());
  }
}
