package org.perftrack.server.stats;

/**
 * Rank evidence on raw samples. {@link #separation} is the "large clean effect" rule: when every sample
 * of one side lies beyond every sample of the other by at least a factor, the samples alone say the
 * two differ, whatever a noise model built from history says. Only meaningful for samples measured in
 * the same session (interleaved): two sessions can differ as a whole on a loaded machine.
 */
public final class RankTest {
  /** Smallest samples per side for the separation rule (5 vs 5: exact two-sided p = 2/252). */
  public static final int MIN_SAMPLES = 5;

  private RankTest() {
  }

  /**
   * Log of the gap between the two sides when they do not overlap: positive when every {@code after}
   * sample is above every {@code before} sample (log(min after / max before)), negative when every one
   * is below (log(max after / min before)); 0 when they overlap or a side has fewer than
   * {@value #MIN_SAMPLES} samples or a non-positive one.
   */
  public static double separation(double[] before, double[] after) {
    if (before.length < MIN_SAMPLES || after.length < MIN_SAMPLES) {
      return 0;
    }
    double bMin = Double.MAX_VALUE;
    double bMax = 0;
    double aMin = Double.MAX_VALUE;
    double aMax = 0;
    for (double v : before) {
      if (!(v > 0)) {
        return 0;
      }
      bMin = Math.min(bMin, v);
      bMax = Math.max(bMax, v);
    }
    for (double v : after) {
      if (!(v > 0)) {
        return 0;
      }
      aMin = Math.min(aMin, v);
      aMax = Math.max(aMax, v);
    }
    if (aMin > bMax) {
      return Math.log(aMin / bMax);
    }
    if (aMax < bMin) {
      return Math.log(aMax / bMin);
    }
    return 0;
  }

  /** Exact two-sided Mann-Whitney p-value when the sides are completely separated: 2 / C(n + m, n). */
  public static double separatedP(int n, int m) {
    double c = 1;
    for (int i = 1; i <= Math.min(n, m); i++) {
      c = c * (n + m - Math.min(n, m) + i) / i;
    }
    return Math.min(1, 2 / c);
  }
}
