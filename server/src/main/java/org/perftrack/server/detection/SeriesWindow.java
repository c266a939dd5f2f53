package org.perftrack.server.detection;

import java.util.List;
import java.util.Map;

/**
 * One series as detection loads it: its fingerprint and the versions around the changed one (at most
 * 2 × window on each side), with every run's samples of a version pooled, and the ids of those
 * versions for writing regressions back.
 */
record SeriesWindow(long seriesId, String product, String machine, String benchmark, String metric, String unit,
    Direction direction, List<VersionPoint> points, Map<String, Long> versionIds) {

  SeriesHistory series() {
    return new SeriesHistory(direction, points);
  }

  /** The series with the raw samples of its interleaved runs (for the paired evidence). */
  SeriesHistory series(List<BatchRun> batchRuns) {
    return new SeriesHistory(direction, points, batchRuns);
  }

  /** Trimmed mean of a version's samples, or NaN when the version is not in the window. */
  double level(String version) {
    for (VersionPoint p : points) {
      if (p.version().equals(version)) {
        return p.summary().level();
      }
    }
    return Double.NaN;
  }
}
