package org.perftrack.server.detection;

import org.perftrack.server.stats.Robust;
import java.util.List;

/**
 * Per-version summaries in log space: {@code x[i]} = log of the trimmed mean of version i's samples,
 * {@code withinSe[i]} = its standard error from the samples alone (the within-session noise).
 * Working in logs makes a step a ratio, whatever the metric's scale. {@code withinDf} is the degrees of
 * freedom the within-session errors rest on: Σ(nᵢ − 1) over the versions' samples.
 */
record Levels(List<String> versions, double[] x, double[] withinSe, int withinDf) {

  static Levels of(List<VersionPoint> points) {
    int n = points.size();
    double[] x = new double[n];
    double[] se = new double[n];
    String[] names = new String[n];
    int df = 0;
    for (int i = 0; i < n; i++) {
      VersionLevel summary = points.get(i).summary();
      names[i] = points.get(i).version();
      x[i] = Math.log(Math.max(summary.level(), Double.MIN_NORMAL));
      se[i] = summary.withinSe();
      df += summary.withinDf();
    }
    return new Levels(List.of(names), x, se, df);
  }

  static boolean allPositive(List<VersionPoint> points) {
    for (VersionPoint p : points) { // a loop, not a stream: called for every series of every upload
      if (!(p.summary().positive() && p.summary().level() > 0)) {
        return false;
      }
    }
    return true;
  }

  int size() {
    return x.length;
  }

  /** The first {@code n} versions (the history as it was before the later ones). */
  Levels prefix(int n) {
    int df = 0;
    for (int i = 0; i < n; i++) {
      df += Double.isNaN(withinSe[i]) ? 0 : 1;
    }
    return new Levels(versions.subList(0, n), java.util.Arrays.copyOf(x, n), java.util.Arrays.copyOf(withinSe, n),
        n == x.length ? withinDf : Math.min(withinDf, withinDf * n / Math.max(1, x.length)));
  }

  /** Typical within-session standard error over these versions (median, ignoring single-sample ones). */
  double pooledWithinSe() {
    double[] known = new double[withinSe.length];
    int n = 0;
    for (double v : withinSe) {
      if (!Double.isNaN(v)) {
        known[n++] = v;
      }
    }
    return n == 0 ? 0 : Robust.median(known, 0, n);
  }

  /** The versions' within-run errors and the degrees of freedom one of them rests on, on average. */
  PooledScan.Within within() {
    int known = 0;
    for (double v : withinSe) {
      known += Double.isNaN(v) ? 0 : 1;
    }
    return new PooledScan.Within(withinSe, known == 0 ? 0 : (double) withinDf / known);
  }

  double[] values() {
    double[] out = new double[x.length];
    for (int i = 0; i < x.length; i++) {
      out[i] = Math.exp(x[i]);
    }
    return out;
  }
}
