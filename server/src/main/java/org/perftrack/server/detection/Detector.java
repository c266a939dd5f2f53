package org.perftrack.server.detection;

import java.util.ArrayList;
import java.util.List;
import org.perftrack.server.stats.MultipleTesting;

/**
 * Entry point of step detection (no Spring, no database): given the series an upload touched,
 * returns per series the steps among the versions the upload could affect. False alarms across
 * the many metrics of one run are controlled with Benjamini-Hochberg over all candidates.
 */
public final class Detector {
  /**
   * Whatever else moved in the run, one series never alerts on weaker evidence than this
   * (scan-corrected): Benjamini-Hochberg alone grows lenient when many metrics step together. A clean
   * step (an interleaved session whose samples do not overlap by a wide margin) needs no p-value.
   */
  static final double MAX_P = 2e-4;
  /**
   * The same ceiling for a step at the newest version: it is reported unconfirmed, and the next version confirms
   * or withdraws it, so a bad build costs one withdrawn report, while waiting costs the culprit build its failure.
   */
  static final double NEWEST_MAX_P = 1e-3;

  /**
   * The ceiling for a step judged on all the versions of its segment ({@link PooledScan}): its p-value is already
   * corrected for every split tried, and a segment is judged again by every upload that adds to it.
   */
  static final double POOLED_MAX_P = 1e-3;

  private static double ceiling(LocalScan.Candidate c) {
    return c.newest() ? NEWEST_MAX_P : c.pooled() ? POOLED_MAX_P : MAX_P;
  }

  public DetectionResult detect(SeriesHistory series, String changedVersion, DetectionSettings settings) {
    return detectRun(List.of(new SeriesUpdate(series, changedVersion, settings))).get(0);
  }

  public List<DetectionResult> detectRun(List<SeriesUpdate> updates) {
    CommonShift.Judged judged = CommonShift.apply(updates, updates.stream().map(LocalScan::of).toList());
    List<LocalScan> scans = judged.scans();
    boolean[][] keep = benjaminiHochberg(scans);
    List<DetectionResult> results = new ArrayList<>(scans.size());
    for (int s = 0; s < scans.size(); s++) {
      LocalScan scan = scans.get(s);
      if (scan == null) {
        results.add(DetectionResult.empty());
        continue;
      }
      List<Step> steps = new ArrayList<>();
      for (int c = 0; c < scan.candidates().size(); c++) {
        if (keep[s][c]) {
          boolean relative = judged.relative().getOrDefault(s, List.of()).contains(c);
          steps.add(relative ? CommonShift.described(scan.toStep(c)) : scan.toStep(c));
        }
      }
      Step waiting = waiting(scan, steps);
      results.add(waiting == null ? scan.result(steps) : scan.result(steps).withWaiting(List.of(waiting)));
    }
    return results;
  }

  /**
   * A change for the worse at the newest version that the scan would look at (at least the minimum effect, and
   * {@link StepScan#T_PRELIM} × its error against the spread between the builds before it) but that is not
   * reported as a step: too small or too weak for the upload that brought it, it waits for one more build.
   * Null when there is none.
   */
  static Step waiting(LocalScan scan, List<Step> steps) {
    Levels levels = scan.levels();
    int n = levels.size();
    List<VersionPoint> points = scan.update().series().points();
    String newest = levels.versions().get(n - 1);
    if (n - 1 < StepChecks.NEWEST_MIN_BEFORE || !points.get(points.size() - 1).version().equals(newest)
        || !scan.update().changedVersion().equals(newest)) {
      return null;
    }
    // the builds since the latest step found are the level the newest is compared with
    int from = Math.max(0, n - 1 - scan.update().settings().window());
    for (Step s : steps) {
      from = Math.max(from, levels.versions().indexOf(s.version()));
    }
    if (n - 1 - from < 1) {
      return null;
    }
    double[] x = levels.x();
    double before = org.perftrack.server.stats.Robust.median(x, from, n - 1);
    double shift = x[n - 1] - before;
    if (Math.abs(shift) < scan.minEffect() || !scan.update().series().direction().isWorse(shift)) {
      return null;
    }
    NoiseModel noise = NoiseModel.estimate(levels.prefix(n - 1));
    double t = shift / (noise.sigma() * Math.sqrt(StepScan.MEDIAN_VARIANCE * (1.0 / (n - 1 - from) + 1)));
    if (Math.abs(t) < StepScan.T_PRELIM) {
      return null;
    }
    double baseline = Math.exp(before);
    double value = Math.exp(x[n - 1]);
    return new Step(levels.versions().get(n - 2), newest, baseline, value, value / baseline,
        org.perftrack.server.stats.StudentT.twoSidedP(t, noise.df()), Regression.Kind.REGRESSION,
        "waiting for one more build", false);
  }

  /**
   * Every candidate of every scan is one hypothesis at its series' own false discovery rate; a series tested
   * without a candidate still counts as one.
   */
  private static boolean[][] benjaminiHochberg(List<LocalScan> scans) {
    boolean[][] keep = new boolean[scans.size()][];
    List<int[]> at = new ArrayList<>();
    List<Double> p = new ArrayList<>();
    List<Double> q = new ArrayList<>();
    int tested = 0;
    for (int s = 0; s < scans.size(); s++) {
      LocalScan scan = scans.get(s);
      keep[s] = new boolean[scan == null ? 0 : scan.candidates().size()];
      if (scan == null) {
        continue;
      }
      tested++;
      for (int c = 0; c < scan.pValues().length; c++) {
        at.add(new int[] {s, c});
        p.add(scan.pValues()[c]);
        q.add(scan.update().settings().falseDiscoveryRate());
      }
    }
    boolean[] rejected = MultipleTesting.benjaminiHochberg(p.stream().mapToDouble(Double::doubleValue).toArray(),
        q.stream().mapToDouble(Double::doubleValue).toArray(), Math.max(tested, p.size()),
        at.stream().mapToDouble(i -> ceiling(scans.get(i[0]).candidates().get(i[1]))).toArray());
    for (int i = 0; i < rejected.length; i++) {
      keep[at.get(i)[0]][at.get(i)[1]] = rejected[i];
    }
    for (int s = 0; s < scans.size(); s++) {
      LocalScan scan = scans.get(s);
      for (int c = 0; scan != null && c < scan.candidates().size(); c++) {
        keep[s][c] |= scan.candidates().get(c).clean();
      }
    }
    return keep;
  }
}
