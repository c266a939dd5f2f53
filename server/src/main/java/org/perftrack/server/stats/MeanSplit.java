package org.perftrack.server.stats;

/**
 * A series {@code x[from, to)} split at {@code k} into two levels, each side's mean: how far apart they are and what
 * is left around them.
 *
 * @param before the mean of {@code x[from, k)}
 * @param after the mean of {@code x[k, to)}
 * @param sse the sum of squared residuals around the two means
 * @param nBefore the values before the split
 * @param nAfter the values from it on
 */
public record MeanSplit(double before, double after, double sse, int nBefore, int nAfter) {

  public static MeanSplit of(double[] x, int from, int k, int to) {
    double before = mean(x, from, k);
    double after = mean(x, k, to);
    double sse = 0;
    for (int i = from; i < to; i++) {
      double r = x[i] - (i < k ? before : after);
      sse += r * r;
    }
    return new MeanSplit(before, after, sse, k - from, to - k);
  }

  public double shift() {
    return after - before;
  }

  /** The residual standard deviation (two means fitted), at least {@code floor}. */
  public double sd(double floor) {
    return Math.max(Math.sqrt(sse / (nBefore + nAfter - 2)), floor);
  }

  /** The pooled two-sample t of the shift, its standard deviation at least {@code floor}. */
  public double t(double floor) {
    return shift() / (sd(floor) * Math.sqrt(1.0 / nBefore + 1.0 / nAfter));
  }

  private static double mean(double[] x, int from, int to) {
    double sum = 0;
    for (int i = from; i < to; i++) {
      sum += x[i];
    }
    return sum / (to - from);
  }
}
