package org.perftrack.server.stats;

import java.util.Arrays;
import java.util.Comparator;

/** Many hypotheses tested at once: which to reject while keeping the false discovery rate. */
public final class MultipleTesting {

  private MultipleTesting() {
  }

  /**
   * Benjamini-Hochberg step-up at one rate {@code q} over the p-values given; a NaN p-value (nothing to test)
   * is never rejected and does not count as a hypothesis.
   */
  public static boolean[] benjaminiHochberg(double[] p, double q) {
    double[] rates = new double[p.length];
    Arrays.fill(rates, q);
    int m = (int) Arrays.stream(p).filter(v -> !Double.isNaN(v)).count();
    return benjaminiHochberg(p, rates, m, 1);
  }

  /**
   * Benjamini-Hochberg step-up where each hypothesis may carry its own rate {@code q[i]}: with the p-values in
   * ascending order, every one up to the last rank r whose p ≤ min({@code cap}, q·r/m) is rejected. {@code m} is
   * the number of hypotheses, at least the p-values given (a family that offered none still counts); a NaN
   * p-value is never rejected.
   */
  public static boolean[] benjaminiHochberg(double[] p, double[] q, int m, double cap) {
    double[] caps = new double[p.length];
    Arrays.fill(caps, cap);
    return benjaminiHochberg(p, q, m, caps);
  }

  /** As above, with a ceiling {@code cap[i]} of its own for each hypothesis. */
  public static boolean[] benjaminiHochberg(double[] p, double[] q, int m, double[] cap) {
    Integer[] order = new Integer[p.length];
    for (int i = 0; i < p.length; i++) {
      order[i] = i;
    }
    Arrays.sort(order, Comparator.comparingDouble(i -> Double.isNaN(p[i]) ? Double.POSITIVE_INFINITY : p[i]));
    int last = -1;
    for (int r = 0; r < p.length && !Double.isNaN(p[order[r]]); r++) {
      if (p[order[r]] <= Math.min(cap[order[r]], q[order[r]] * (r + 1) / m)) {
        last = r;
      }
    }
    boolean[] rejected = new boolean[p.length];
    for (int r = 0; r <= last; r++) {
      rejected[order[r]] = true;
    }
    return rejected;
  }
}
