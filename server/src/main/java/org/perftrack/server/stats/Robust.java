package org.perftrack.server.stats;

import java.util.Arrays;

/** Small robust estimators on plain arrays; each copies before sorting so callers keep their order. */
public final class Robust {
  public static final double MAD_TO_SD = 1.4826;
  /** The share of samples a trimmed mean drops at each end: 5 samples lose their min and max (hbench's rule). */
  public static final double TRIM = 0.2;

  private Robust() {
  }

  public static double median(double[] values, int from, int to) {
    double[] copy = Arrays.copyOfRange(values, from, to);
    Arrays.sort(copy);
    return sortedMedian(copy, copy.length);
  }

  public static double median(double[] values) {
    return median(values, 0, values.length);
  }

  public static double sortedMedian(double[] sorted, int n) {
    int half = n / 2;
    return n % 2 == 1 ? sorted[half] : (sorted[half - 1] + sorted[half]) / 2;
  }

  /** Median absolute deviation from the median, scaled to a normal standard deviation. */
  public static double madSd(double[] values, int from, int to) {
    double center = median(values, from, to);
    double[] dev = new double[to - from];
    for (int i = from; i < to; i++) {
      dev[i - from] = Math.abs(values[i] - center);
    }
    Arrays.sort(dev);
    return MAD_TO_SD * sortedMedian(dev, dev.length);
  }

  /** Mean without the {@link #TRIM} share at each end (5 samples: drop min and max, average three, as hbench users do). */
  public static double trimmedMean(double[] values) {
    double[] copy = values.clone();
    Arrays.sort(copy);
    int cut = (int) Math.floor(copy.length * TRIM);
    double sum = 0;
    for (int i = cut; i < copy.length - cut; i++) {
      sum += copy[i];
    }
    return sum / (copy.length - 2 * cut);
  }

  /**
   * Hodges-Lehmann shift: median of all differences after - before. Robust to a bad session on
   * either side, and nearly as efficient as a difference of means on normal data.
   */
  public static double shift(double[] x, int beforeFrom, int beforeTo, int afterFrom, int afterTo, double[] scratch) {
    int n = 0;
    for (int a = afterFrom; a < afterTo; a++) {
      for (int b = beforeFrom; b < beforeTo; b++) {
        scratch[n++] = x[a] - x[b];
      }
    }
    Arrays.sort(scratch, 0, n);
    return sortedMedian(scratch, n);
  }
}
