package org.perftrack.server.detection.eval;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.apache.commons.math3.distribution.TDistribution;

/**
 * Otava / Hunter (the E-divisive approach MongoDB published), reimplemented from the papers and
 * documentation: hierarchical E-divisive (energy statistic, alpha = 1) picks the best split of the
 * segment that has the best one; a split is kept while a two-sample t-test between its adjacent
 * segments gives p &lt; {@code maxP}; finally change points whose adjacent segments no longer differ
 * at p &lt; maxP are dropped, weakest first. One value per version (the run's mean).
 */
final class OtavaMethod implements OfflineMethod {
  private static final int MIN_SIDE = 2;
  private final double maxP;

  OtavaMethod(double maxP) {
    this.maxP = maxP;
  }

  @Override
  public String name() {
    return "otava-edivisive";
  }

  @Override
  public List<int[]> changePoints(double[] v) {
    List<Integer> cps = new ArrayList<>();
    while (true) {
      List<Integer> bounds = bounds(cps, v.length);
      int bestCp = -1;
      double bestQ = 0;
      int segStart = 0;
      int segEnd = 0;
      for (int s = 0; s + 1 < bounds.size(); s++) {
        Split split = bestSplit(v, bounds.get(s), bounds.get(s + 1));
        if (split.index() >= 0 && split.q() > bestQ) {
          bestQ = split.q();
          bestCp = split.index();
          segStart = bounds.get(s);
          segEnd = bounds.get(s + 1);
        }
      }
      if (bestCp < 0 || pValue(v, segStart, bestCp, segEnd) >= maxP) {
        break;
      }
      cps.add(bestCp);
      Collections.sort(cps);
    }
    prune(v, cps);
    List<int[]> out = new ArrayList<>();
    List<Integer> bounds = bounds(cps, v.length);
    for (int i = 1; i + 1 < bounds.size(); i++) {
      int cp = bounds.get(i);
      out.add(new int[] {cp, mean(v, cp, bounds.get(i + 1)) > mean(v, bounds.get(i - 1), cp) ? 1 : -1});
    }
    return out;
  }

  private void prune(double[] v, List<Integer> cps) {
    while (!cps.isEmpty()) {
      List<Integer> bounds = bounds(cps, v.length);
      int worst = -1;
      double worstP = -1;
      for (int i = 1; i + 1 < bounds.size(); i++) {
        double p = pValue(v, bounds.get(i - 1), bounds.get(i), bounds.get(i + 1));
        if (p > worstP) {
          worstP = p;
          worst = i - 1;
        }
      }
      if (worstP < maxP) {
        return;
      }
      cps.remove(worst);
    }
  }

  private static List<Integer> bounds(List<Integer> cps, int n) {
    List<Integer> b = new ArrayList<>();
    b.add(0);
    b.addAll(cps);
    b.add(n);
    return b;
  }

  private record Split(int index, double q) {
  }

  /** The best E-divisive split of [from, to), index -1 when the segment is too short. */
  private static Split bestSplit(double[] v, int from, int to) {
    int best = -1;
    double bestQ = 0;
    for (int tau = from + MIN_SIDE; tau <= to - MIN_SIDE; tau++) {
      double q = qHat(v, from, tau, to);
      if (q > bestQ) {
        bestQ = q;
        best = tau;
      }
    }
    return new Split(best, bestQ);
  }

  static double qHat(double[] v, int from, int tau, int to) {
    int m = tau - from;
    int n = to - tau;
    double between = 0;
    for (int i = from; i < tau; i++) {
      for (int j = tau; j < to; j++) {
        between += Math.abs(v[i] - v[j]);
      }
    }
    double e = 2 * between / (m * (double) n) - within(v, from, tau) - within(v, tau, to);
    return m * (double) n / (m + n) * e;
  }

  private static double within(double[] v, int from, int to) {
    int k = to - from;
    if (k < 2) {
      return 0;
    }
    double sum = 0;
    for (int i = from; i < to; i++) {
      for (int j = i + 1; j < to; j++) {
        sum += Math.abs(v[i] - v[j]);
      }
    }
    return 2 * sum / (k * (double) (k - 1));
  }

  /** Student t-test (pooled variance) of [from, cp) against [cp, to), as Hunter's tester does. */
  static double pValue(double[] v, int from, int cp, int to) {
    int n1 = cp - from;
    int n2 = to - cp;
    if (n1 < 1 || n2 < 1 || n1 + n2 <= 2) {
      return 1;
    }
    double m1 = mean(v, from, cp);
    double m2 = mean(v, cp, to);
    double ss = 0;
    for (int i = from; i < cp; i++) {
      ss += (v[i] - m1) * (v[i] - m1);
    }
    for (int i = cp; i < to; i++) {
      ss += (v[i] - m2) * (v[i] - m2);
    }
    double pooled = ss / (n1 + n2 - 2);
    double se = Math.sqrt(pooled * (1.0 / n1 + 1.0 / n2));
    if (se == 0) {
      return m1 == m2 ? 1 : 0;
    }
    double t = Math.abs(m2 - m1) / se;
    return 2 * new TDistribution(null, n1 + n2 - 2).cumulativeProbability(-t);
  }

  private static double mean(double[] v, int from, int to) {
    double s = 0;
    for (int i = from; i < to; i++) {
      s += v[i];
    }
    return s / (to - from);
  }
}
