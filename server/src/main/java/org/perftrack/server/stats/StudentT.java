package org.perftrack.server.stats;

import org.apache.commons.math3.special.Beta;

/** Student's t distribution: the p-value of a t statistic. */
public final class StudentT {

  private StudentT() {
  }

  /** Two-sided p-value of {@code t} with {@code df} degrees of freedom (df may be fractional, as Welch's is). */
  public static double twoSidedP(double t, double df) {
    return Beta.regularizedBeta(df / (df + t * t), df / 2, 0.5);
  }
}
