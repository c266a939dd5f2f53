package org.perftrack.server.detection;

import java.util.ArrayList;
import java.util.List;

/** The point (level and spread) of one version of a series, from the values of its runs. */
final class RunPoints {

  private RunPoints() {}

  /**
   * The point of a version with one run: this run's own values, as {@link PointWrites#readPoints} would read them
   * back.
   */
  static VersionLevel pointOf(StoredRun.Values v) {
    return v.samples().length > 0 ? VersionLevel.of(v.samples()) : summaryOnly(v.n(), v.mean(), v.median(), v.stddev());
  }

  /**
   * The point of a result that carries only a tool's statistics (no raw samples): its median, or mean, as the
   * level; the standard error of log(level) from its stddev, doubled because a stddev is not robust to the
   * outliers the trimmed mean and MAD of raw samples shrug off; and a count of 0, so that the test treats
   * the spread as unknown-quality (its degrees of freedom come from the prior). Raw samples always win.
   */
  static VersionLevel summaryOnly(int n, double mean, Double median, Double stddev) {
    double level = median == null ? mean : median;
    double se = stddev == null || level <= 0 || n < 2 ? Double.NaN : 2 * stddev / level / Math.sqrt(n);
    return new VersionLevel(level, se, level > 0, 0);
  }

  /** Several summary-only runs of one version: the mean of their levels, the largest standard error. */
  static VersionLevel pooled(List<VersionLevel> runs) {
    double level = runs.stream().mapToDouble(VersionLevel::level).average().orElseThrow();
    double se = runs.stream().mapToDouble(VersionLevel::withinSe).filter(v -> !Double.isNaN(v)).max().orElse(Double.NaN);
    return new VersionLevel(level, se, runs.stream().allMatch(VersionLevel::positive), 0);
  }

  /** The point of one (series, version) from the values of its runs. */
  static VersionLevel pointOfRuns(List<StoredRun.Values> runs) {
    if (runs.size() == 1 && runs.get(0).samples().length > 0) {
      return VersionLevel.of(runs.get(0).samples());
    }
    List<double[]> samples = new ArrayList<>();
    List<VersionLevel> summaries = new ArrayList<>();
    for (StoredRun.Values v : runs) {
      if (v.samples().length > 0) {
        samples.add(v.samples());
      } else {
        summaries.add(pointOf(v));
      }
    }
    return samples.isEmpty() ? pooled(summaries) : VersionLevel.of(concat(samples));
  }

  static double[] concat(List<double[]> arrays) {
    return arrays.stream().flatMapToDouble(java.util.Arrays::stream).toArray();
  }

  /**
   * Parses PostgreSQL's text form of a float8[] ({@code {18.1,17.9}}): several times faster than
   * the driver's generic array, which boxes every element, and the window holds thousands.
   */
  static double[] parse(String text) {
    String body = text.substring(1, text.length() - 1);
    if (body.isEmpty()) {
      return new double[0];
    }
    int n = 1;
    for (int i = 0; i < body.length(); i++) {
      n += body.charAt(i) == ',' ? 1 : 0;
    }
    double[] out = new double[n];
    int start = 0;
    for (int i = 0; i < n; i++) {
      int end = body.indexOf(',', start);
      out[i] = Double.parseDouble(body.substring(start, end < 0 ? body.length() : end));
      start = end + 1;
    }
    return out;
  }
}
