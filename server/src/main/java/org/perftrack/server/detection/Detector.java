package org.perftrack.server.detection;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

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

  private record Test(int scan, int candidate, double p, double q) {
  }

  private static boolean[][] benjaminiHochberg(List<LocalScan> scans) {
    List<Test> tests = new ArrayList<>();
    boolean[][] keep = new boolean[scans.size()][];
    int tested = 0;
    for (int s = 0; s < scans.size(); s++) {
      LocalScan scan = scans.get(s);
      keep[s] = new boolean[scan == null ? 0 : scan.candidates().size()];
      if (scan == null) {
        continue;
      }
      tested++;
      for (int c = 0; c < scan.pValues().length; c++) {
        tests.add(new Test(s, c, scan.pValues()[c], scan.update().settings().falseDiscoveryRate()));
      }
    }
    int m = Math.max(tested, tests.size());
    tests.sort(Comparator.comparingDouble(Test::p));
    int lastRejected = -1;
    for (int r = 0; r < tests.size(); r++) {
      if (tests.get(r).p() <= Math.min(MAX_P, tests.get(r).q() * (r + 1) / m)) {
        lastRejected = r;
      }
    }
    for (int r = 0; r <= lastRejected; r++) {
      keep[tests.get(r).scan()][tests.get(r).candidate()] = true;
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
