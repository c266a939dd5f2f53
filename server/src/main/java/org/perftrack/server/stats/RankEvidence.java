package org.perftrack.server.stats;

/**
 * Rank evidence on raw samples. {@link #fastSideSeparation} is the "large clean effect" rule: when every
 * sample of one side lies beyond the fast samples of the other by at least a factor, the samples alone say
 * the two differ, whatever a noise model built from history says. Only meaningful for samples measured in
 * the same session (interleaved): two sessions can differ as a whole on a loaded machine.
 */
public final class RankEvidence {
  /** Smallest samples per side for the separation rule (5 vs 5: exact two-sided p = 2/252). */
  public static final int MIN_SAMPLES = 5;

  private RankEvidence() {
  }

  /**
   * The clean-separation rule for measurements whose disturbances only ever slow them down (another
   * process, a cold cache, a burst of load never makes a benchmark faster): only the fast side of each
   * version is trusted. {@code slowerIsHigher} says which way "slower" is (true for times). A regression:
   * every sample of {@code after} is slower than the fast half of {@code before} (its
   * {@code (n + 1) / 2 - 1} fastest samples) by the returned gap; an improvement: every sample of
   * {@code before} is slower than the fast half of {@code after}. So up to n − 1 disturbed samples of the
   * slower side, and all but the fast half of the faster side, cannot make or hide a step, while a noise
   * pair needs every sample of one version disturbed to look like one. The gap counts only when it is
   * {@value #SPREAD_MULTIPLE} × the spread of the faster version's fast half (a step moves a tight group)
   * and {@value #SLOWER_SPREAD_MULTIPLE} × that of the slower one (whose samples a loaded machine scatters
   * more: on a busy machine a slowed call waits for the scheduler too). Returns the log
   * gap signed as log(after / before) would be, or 0; 0 with fewer than {@value #MIN_SAMPLES} samples a side
   * or a non-positive one.
   */
  public static double fastSideSeparation(double[] before, double[] after, boolean slowerIsHigher) {
    if (before.length < MIN_SAMPLES || after.length < MIN_SAMPLES) {
      return 0;
    }
    double[] b = oriented(before, slowerIsHigher);
    double[] a = oriented(after, slowerIsHigher);
    if (b == null || a == null) {
      return 0;
    }
    int cb = (b.length + 1) / 2 - 1;
    int ca = (a.length + 1) / 2 - 1;
    double spreadB = b[cb - 1] - b[0];
    double spreadA = a[ca - 1] - a[0];
    double slower = a[0] - b[cb - 1];
    double faster = b[0] - a[ca - 1];
    double sign = slowerIsHigher ? 1 : -1;
    if (slower > 0 && slower >= SPREAD_MULTIPLE * spreadB && slower >= SLOWER_SPREAD_MULTIPLE * spreadA) {
      return sign * slower;
    }
    if (faster > 0 && faster >= SPREAD_MULTIPLE * spreadA && faster >= SLOWER_SPREAD_MULTIPLE * spreadB) {
      return -sign * faster;
    }
    return 0;
  }

  /** Logs of the samples, negated when slower is lower, sorted fastest first; null if one is not positive. */
  private static double[] oriented(double[] samples, boolean slowerIsHigher) {
    double[] out = new double[samples.length];
    for (int i = 0; i < samples.length; i++) {
      if (!(samples[i] > 0)) {
        return null;
      }
      out[i] = slowerIsHigher ? Math.log(samples[i]) : -Math.log(samples[i]);
    }
    java.util.Arrays.sort(out);
    return out;
  }

  /**
   * A gap counts only when it is this many times the spread of the faster version's fast half: wild
   * samples can line up beyond the other side, but they scatter, while a step moves a whole tight group.
   */
  public static final double SPREAD_MULTIPLE = 3;
  /** The same for the slower version's fast half. */
  public static final double SLOWER_SPREAD_MULTIPLE = 2;

  /**
   * Exact two-sided Mann-Whitney p-value of {@code a} against {@code b} (ties count half), from the
   * distribution of U over all C(n + m, n) splits; a normal approximation above {@value #EXACT_LIMIT}
   * samples in all.
   */
  public static double mannWhitneyP(double[] a, double[] b) {
    int n = a.length;
    int m = b.length;
    if (n == 0 || m == 0) {
      return 1;
    }
    double u = 0;
    for (double x : a) {
      for (double y : b) {
        u += x > y ? 1 : x == y ? 0.5 : 0;
      }
    }
    double extreme = Math.min(u, n * (double) m - u);
    if (n + m > EXACT_LIMIT) {
      double sd = Math.sqrt(n * (double) m * (n + m + 1) / 12.0);
      double z = (n * (double) m / 2 - extreme - 0.5) / sd;
      return Math.min(1, 2 * 0.5 * org.apache.commons.math3.special.Erf.erfc(z / Math.sqrt(2)));
    }
    // f[i][j][s]: orderings of i values of a and j of b with U = s; the largest is from a (it beats j) or b
    int max = n * m;
    double[][][] f = new double[n + 1][m + 1][];
    for (int i = 0; i <= n; i++) {
      for (int j = 0; j <= m; j++) {
        f[i][j] = new double[i * j + 1];
        if (i == 0 || j == 0) {
          f[i][j][i * j] = 1;
          continue;
        }
        for (int s = 0; s <= i * j; s++) {
          double fromA = s - j >= 0 && s - j <= (i - 1) * j ? f[i - 1][j][s - j] : 0;
          double fromB = s <= i * (j - 1) ? f[i][j - 1][s] : 0;
          f[i][j][s] = fromA + fromB;
        }
      }
    }
    double[] counts = f[n][m];
    double total = 0;
    double tail = 0;
    for (int s = 0; s <= max; s++) {
      total += counts[s];
      tail += s <= extreme + 1e-9 ? counts[s] : 0;
    }
    return Math.min(1, 2 * tail / total);
  }

  static final int EXACT_LIMIT = 60;
}
