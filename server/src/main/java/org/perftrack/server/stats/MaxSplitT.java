package org.perftrack.server.stats;

import org.apache.commons.math3.special.Erf;

/**
 * The null distribution of the largest two-sample t over the splits of one series (the likelihood-ratio statistic
 * of a single change in mean): {@code m} values, every split leaving at least {@code minSide} on each side, all
 * tested, the best one reported. The statistics of neighbouring splits share all but one value (correlation
 * √(k(m−k−1) / ((k+1)(m−k))) between the splits after k and k + 1 values), so a Bonferroni correction (one full
 * test per split) overstates the chance that noise alone gives a t this large.
 *
 * <p>The p-value is the Hunter–Worsley bound, Bonferroni less the chance that neighbouring splits both exceed:
 * P(max |T| ≥ b) ≤ Σₖ P(|Tₖ| ≥ b) − Σₖ P(|Tₖ| ≥ b, |Tₖ₊₁| ≥ b) (Worsley 1979 for this statistic). The pair
 * probabilities are those of two correlated normals at the level with the t's own tail probability; they are
 * computed only where Bonferroni alone is small enough to matter. With a known error (many degrees of freedom) this
 * is an upper bound close to the simulated tail; with few it is an approximation, within 20 % of a simulation at 10
 * degrees of freedom (the shared error makes neighbouring t's exceed together a little more often than normals).
 */
public final class MaxSplitT {
  /** Above this Bonferroni p-value the correction is not computed (nothing is decided up there). */
  static final double CORRECT_BELOW = 0.05;
  private static final int INTERVALS = 64;
  private static final double SPAN = 6;

  private MaxSplitT() {
  }

  /**
   * P(max over splits |T| ≥ {@code t}) for {@code m} values, at least {@code minSide} on each side of every split,
   * each T Student's t with {@code df} degrees of freedom.
   */
  public static double p(double t, double df, int m, int minSide) {
    int positions = m - 2 * minSide + 1;
    if (positions <= 0) {
      return 1;
    }
    double single = StudentT.twoSidedP(Math.abs(t), df);
    double bonferroni = positions * single;
    if (positions == 1 || bonferroni >= CORRECT_BELOW) {
      return Math.min(1, bonferroni);
    }
    // the normal level with the same two-sided tail as t
    double b = Math.sqrt(2) * Erf.erfcInv(single);
    double both = 0;
    for (int k = minSide; k < m - minSide; k++) {
      double rho = Math.sqrt((double) k * (m - k - 1) / ((double) (k + 1) * (m - k)));
      both += 2 * bothAbove(b, rho);
    }
    return Math.min(1, Math.max(single, bonferroni - both));
  }

  /** P(X ≥ b, Y ≥ b) for standard normals with correlation {@code rho} (Simpson's rule over X). */
  static double bothAbove(double b, double rho) {
    double s = Math.sqrt(1 - rho * rho);
    double h = SPAN / INTERVALS;
    double sum = 0;
    for (int i = 0; i <= INTERVALS; i++) {
      double x = b + i * h;
      double f = density(x) * upper((b - rho * x) / s);
      sum += f * (i == 0 || i == INTERVALS ? 1 : i % 2 == 1 ? 4 : 2);
    }
    return sum * h / 3;
  }

  private static double density(double x) {
    return Math.exp(-x * x / 2) / Math.sqrt(2 * Math.PI);
  }

  /** P(Z ≥ z) for a standard normal. */
  private static double upper(double z) {
    return 0.5 * Erf.erfc(z / Math.sqrt(2));
  }
}
