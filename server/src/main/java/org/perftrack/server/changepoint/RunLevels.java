package org.perftrack.server.changepoint;

import java.util.Arrays;
import org.perftrack.server.stats.Robust;

/**
 * Each run's level on the log scale and the variance its samples give it, pooled over the segment: the mean of the
 * logs without rare outlier samples, or their trimmed mean when the segment's samples have heavier tails than a
 * normal (see the package comment).
 */
final class RunLevels {
  /** Pooled SD over the SD that the runs' median variance implies above which the level is a trimmed mean. */
  static final double HEAVY = 1.25;
  /** The median of a chi-square with 4 degrees of freedom over 4: a normal run of 5's median variance. */
  private static final double MEDIAN_CHI2_4 = 0.8392;
  /** Robust SDs from its run's median beyond which a sample is an outlier (when they are rare). */
  static final double FAR = 6;
  /** The largest share of a segment's samples that may be outliers (more: the runs have two modes). */
  static final double RARE = 0.12;

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
    logs = withoutOutliers(logs);
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

  /**
   * The runs without their outlier samples, when the segment has few: samples further from their run's median than
   * {@link #FAR} times the pooled robust SD of the samples around their runs' medians, if no more than {@link #RARE}
   * of all samples are and no run loses half of its samples (else the runs as they are: two modes, not outliers).
   */
  static double[][] withoutOutliers(double[][] logs) {
    int total = Arrays.stream(logs).mapToInt(l -> l.length).sum();
    double[] deviations = new double[total];
    double[] medians = new double[logs.length];
    int d = 0;
    for (int i = 0; i < logs.length; i++) {
      medians[i] = Robust.median(logs[i]);
      for (double x : logs[i]) {
        deviations[d++] = logs[i].length >= 3 ? Math.abs(x - medians[i]) : 0;
      }
    }
    double[] nonZero = Arrays.stream(deviations).filter(x -> x > 0).sorted().toArray();
    if (nonZero.length < 10) {
      return logs;
    }
    double limit = FAR * Robust.MAD_TO_SD * Robust.sortedMedian(nonZero, nonZero.length);
    double[][] kept = new double[logs.length][];
    int far = 0;
    for (int i = 0; i < logs.length; i++) {
      double median = medians[i];
      kept[i] = logs[i].length < 3 ? logs[i] : Arrays.stream(logs[i]).filter(x -> Math.abs(x - median) <= limit)
          .toArray();
      far += logs[i].length - kept[i].length;
      if (2 * kept[i].length <= logs[i].length) {
        return logs;
      }
    }
    return far == 0 || far > RARE * total ? logs : kept;
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
