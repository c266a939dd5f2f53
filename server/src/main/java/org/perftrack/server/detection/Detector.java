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

  public DetectionResult detect(Series series, String changedVersion, DetectionSettings settings) {
    return detectRun(List.of(new SeriesUpdate(series, changedVersion, settings))).get(0);
  }

  public List<DetectionResult> detectRun(List<SeriesUpdate> updates) {
    List<LocalScan> scans = updates.stream().map(LocalScan::of).toList();
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
          steps.add(scan.toStep(c));
        }
      }
      results.add(scan.result(steps));
    }
    return results;
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
        at.stream().mapToDouble(i -> scans.get(i[0]).candidates().get(i[1]).newest() ? NEWEST_MAX_P : MAX_P).toArray());
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
