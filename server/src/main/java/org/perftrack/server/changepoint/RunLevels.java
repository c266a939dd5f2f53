package org.perftrack.server.changepoint;

import java.util.Arrays;
import org.perftrack.server.stats.Robust;

/**
 * Each run's level on the log scale and the variance its samples give it, pooled over the segment: the mean of the
 * logs, or their trimmed mean when the segment's samples have heavier tails than a normal (see the package comment).
 */
final class RunLevels {
  /** Pooled SD over the SD that the runs' median variance implies above which the level is a trimmed mean. */
  static final double HEAVY = 1.25;
  /** The median of a chi-square with 4 degrees of freedom over 4: a normal run of 5's median variance. */
  private static final double MEDIAN_CHI2_4 = 0.8392;

  final int[] version;
  final double[] level;
  final double[] within;
  final boolean trimmed;

  private RunLevels(int[] version, double[] level, double[] within, boolean trimmed) {
    this.version = version;
    this.level = level;
    this.within = within;
    this.trimmed = trimmed;
  }

  static RunLevels of(Segment segment) {
    int runs = segment.versions().stream().mapToInt(v -> v.runs().size()).sum();
    int[] version = new int[runs];
    double[][] logs = new double[runs][];
    int r = 0;
    for (int k = 0; k < segment.versions().size(); k++) {
      for (double[] samples : segment.versions().get(k).runs()) {
        version[r] = k;
        logs[r++] = Arrays.stream(samples).map(Math::log).toArray();
      }
    }
    boolean trimmed = heavyTailed(logs);
    double pooled = pooledVariance(logs, trimmed);
    double[] level = new double[runs];
    double[] within = new double[runs];
    for (int i = 0; i < runs; i++) {
      int n = logs[i].length;
      int cut = trimmed ? cut(n) : 0;
      level[i] = cut == 0 ? Arrays.stream(logs[i]).average().orElseThrow() : Robust.trimmedMean(logs[i]);
      double kept = 1 - 2.0 * cut / n;
      within[i] = pooled / (kept * kept * n);
    }
    return new RunLevels(version, level, within, trimmed);
  }

  /** How many samples a trimmed mean drops at each end ({@link Robust#TRIM}). */
  static int cut(int n) {
    return (int) Math.floor(n * Robust.TRIM);
  }

  /** Whether the runs' pooled variance is well above what their median variance says for normal samples. */
  static boolean heavyTailed(double[][] logs) {
    double[] variances = Arrays.stream(logs).filter(l -> l.length == 5).mapToDouble(l -> variance(l, false))
        .sorted().toArray();
    if (variances.length < 5) {
      return false;
    }
    double mean = Arrays.stream(variances).average().orElseThrow();
    double median = Robust.sortedMedian(variances, variances.length) / MEDIAN_CHI2_4;
    return mean > HEAVY * HEAVY * median;
  }

  /** The within-run variance pooled over runs of two or more samples (winsorized when {@code winsorized}). */
  static double pooledVariance(double[][] logs, boolean winsorized) {
    double ss = 0;
    int df = 0;
    for (double[] l : logs) {
      if (l.length >= 2) {
        ss += variance(l, winsorized) * (l.length - 1);
        df += l.length - 1;
      }
    }
    return df == 0 ? 0 : ss / df;
  }

  private static double variance(double[] values, boolean winsorized) {
    double[] x = values.clone();
    if (winsorized) {
      Arrays.sort(x);
      int cut = cut(x.length);
      for (int i = 0; i < cut; i++) {
        x[i] = x[cut];
        x[x.length - 1 - i] = x[x.length - 1 - cut];
      }
    }
    double mean = Arrays.stream(x).average().orElseThrow();
    double ss = 0;
    for (double v : x) {
      ss += (v - mean) * (v - mean);
    }
    return ss / (x.length - 1);
  }
}
