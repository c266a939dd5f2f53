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
   * Log of the gap between the two sides once the {@code trim} samples of each side nearest the other
   * are set aside: positive when the remaining {@code after} samples are all above the remaining
   * {@code before} ones (log(min after / max before)), negative when all below; 0 when they overlap, when
   * the gap is less than {@value #SPREAD_MULTIPLE} × either side's inner spread, or when a side has fewer
   * than {@value #MIN_SAMPLES} samples or a non-positive one. With {@code trim} = 1, one
   * wild sample per side (a burst that hit one version only) cannot hide a clean step.
   */
  public static double separation(double[] before, double[] after, int trim) {
    if (before.length < MIN_SAMPLES || after.length < MIN_SAMPLES) {
      return 0;
    }
    double[] b = before.clone();
    double[] a = after.clone();
    java.util.Arrays.sort(b);
    java.util.Arrays.sort(a);
    if (!(b[0] > 0) || !(a[0] > 0)) {
      return 0;
    }
    double up = Math.log(a[trim] / b[b.length - 1 - trim]);
    double down = Math.log(a[a.length - 1 - trim] / b[trim]);
    double gap = up > 0 ? up : Math.min(down, 0);
    // the inner spread of each side (without its trim lowest and highest samples)
    double spreadB = Math.log(b[b.length - 1 - trim] / b[trim]);
    double spreadA = Math.log(a[a.length - 1 - trim] / a[trim]);
    return Math.abs(gap) >= SPREAD_MULTIPLE * Math.max(spreadA, spreadB) ? gap : 0;
  }

  /**
   * A gap counts only when it is this many times the inner spread of either side (its samples but the
   * trimmed lowest and highest): several wild samples can line up beyond the other side, but they
   * scatter, while a step moves a whole tight group.
   */
  public static final double SPREAD_MULTIPLE = 3;

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
