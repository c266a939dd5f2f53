package org.perftrack.server.detection;

import java.util.List;

/**
 * Per-version summaries in log space: {@code x[i]} = log of the trimmed mean of version i's samples,
 * {@code withinSe[i]} = its standard error from the samples alone (the within-session noise).
 * Working in logs makes a step a ratio, whatever the metric's scale.
 */
record Levels(List<String> versions, double[] x, double[] withinSe) {

  static Levels of(List<Point> points) {
    int n = points.size();
    double[] x = new double[n];
    double[] se = new double[n];
    String[] names = new String[n];
    for (int i = 0; i < n; i++) {
      Point p = points.get(i);
      names[i] = p.version();
      double[] logs = new double[p.samples().length];
      for (int s = 0; s < logs.length; s++) {
        logs[s] = Math.log(Math.max(p.samples()[s], Double.MIN_NORMAL));
      }
      x[i] = Math.log(Math.max(Robust.trimmedMean(p.samples()), Double.MIN_NORMAL));
      se[i] = logs.length < 2 ? Double.NaN : Robust.madSd(logs, 0, logs.length) * 1.2 / Math.sqrt(logs.length);
    }
    return new Levels(List.of(names), x, se);
  }

  static boolean allPositive(List<Point> points) {
    for (Point p : points) {
      for (double v : p.samples()) {
        if (!(v > 0) || Double.isInfinite(v)) {
          return false;
        }
      }
    }
    return true;
  }

  int size() {
    return x.length;
  }

  /** Typical within-session standard error over these versions (median, ignoring single-sample ones). */
  double pooledWithinSe() {
    double[] known = java.util.Arrays.stream(withinSe).filter(v -> !Double.isNaN(v)).toArray();
    return known.length == 0 ? 0 : Robust.median(known);
  }

  double[] values() {
    double[] out = new double[x.length];
    for (int i = 0; i < x.length; i++) {
      out[i] = Math.exp(x[i]);
    }
    return out;
  }
}
