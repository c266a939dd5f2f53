package org.perftrack.server.detection.eval;

import java.util.ArrayList;
import java.util.List;

/**
 * Perfherder's alerting (Mozilla Treeherder), reimplemented from its documented algorithm: for each
 * point, a back window of at least {@code minBack} (at most 24) values and a forward window of
 * {@code fore} values, linearly weighted means (weight falling off away from the point), t =
 * difference over sqrt(var1/n1 + var2/n2); a change where t &gt; 7 is a local maximum, both windows
 * are full, and the unweighted means differ by at least 2 %. One value per version (the run's mean).
 */
final class PerfherderMethod implements OfflineMethod {
  private final int minBack;
  private final int fore;
  private final String name;

  PerfherderMethod(String name, int minBack, int fore) {
    this.name = name;
    this.minBack = minBack;
    this.fore = fore;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public List<int[]> changePoints(double[] v) {
    int n = v.length;
    double[] t = new double[n];
    int[] back = new int[n];
    int[] ahead = new int[n];
    double[] pct = new double[n];
    int[] sign = new int[n];
    int lastSeenRegression = 0;
    int maxBack = Math.max(24, minBack);
    for (int i = 1; i < n; i++) {
      int limit = Math.min(Math.max(lastSeenRegression, minBack), maxBack);
      List<Double> jw = new ArrayList<>();
      for (int p = i - 1; p >= 0 && jw.size() < maxBack && i - p <= limit; p--) {
        jw.add(v[p]);
      }
      List<Double> kw = new ArrayList<>();
      for (int q = i; q < n && kw.size() < fore; q++) {
        kw.add(v[q]);
      }
      back[i] = jw.size();
      ahead[i] = kw.size();
      t[i] = Math.abs(calcT(jw, kw));
      double prev = mean(jw);
      pct[i] = prev == 0 ? 0 : 100 * Math.abs(mean(kw) - prev) / prev;
      sign[i] = mean(kw) > prev ? 1 : -1;
      lastSeenRegression = t[i] > 7 ? 0 : lastSeenRegression + 1;
    }
    List<int[]> out = new ArrayList<>();
    for (int i = 1; i < n; i++) {
      boolean full = back[i] >= minBack && ahead[i] >= fore;
      boolean peak = t[i - 1] <= t[i] && (i + 1 >= n || t[i + 1] <= t[i]);
      if (full && t[i] > 7 && peak && pct[i] >= 2.0) {
        out.add(new int[] {i, sign[i]});
      }
    }
    return out;
  }

  /** jw is ordered from the point backwards, kw from the point forwards: weights fall off outwards. */
  private static double calcT(List<Double> jw, List<Double> kw) {
    if (jw.isEmpty() || kw.isEmpty()) {
      return 0;
    }
    double[] s1 = analyze(jw);
    double[] s2 = analyze(kw);
    double delta = s2[0] - s1[0];
    if (delta == 0) {
      return 0;
    }
    if (s1[1] == 0 && s2[1] == 0) {
      return Double.POSITIVE_INFINITY;
    }
    return delta / Math.sqrt(s1[1] / s1[2] + s2[1] / s2[2]);
  }

  /** Weighted average (linear weights), sample variance around it, and n. */
  private static double[] analyze(List<Double> w) {
    int n = w.size();
    double sum = 0;
    double weights = 0;
    for (int i = 0; i < n; i++) {
      double weight = (double) (n - i) / n;
      sum += w.get(i) * weight;
      weights += weight;
    }
    double avg = sum / weights;
    double ss = 0;
    for (double x : w) {
      ss += (x - avg) * (x - avg);
    }
    return new double[] {avg, n > 1 ? ss / (n - 1) : 0, n};
  }

  private static double mean(List<Double> w) {
    return w.stream().mapToDouble(Double::doubleValue).average().orElse(0);
  }
}
