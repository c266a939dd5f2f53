package org.perftrack.server.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;

import org.junit.jupiter.api.Test;

/**
 * The null of the largest two-sample t over the splits of a series, against a simulation of that statistic on
 * gaussian noise (a fixed seed, so the counts are the same on every run).
 */
class MaxSplitTTest {
  private static final int DRAWS = 200_000;

  @Test
  void matchesTheSimulatedTailOfTheLargestTOverSplitsWithTheSegmentsOwnSpread() {
    int m = 20;
    double[] maxT = simulate(m, 4, new Random(42), false);
    for (double b : new double[] {4.0, 4.6}) {
      double simulated = tail(maxT, b);
      double p = MaxSplitT.p(b, m - 2, m, 4);
      assertThat(p).as("t %.1f", b).isBetween(0.8 * simulated, 1.25 * simulated);
      assertThat(p).isLessThan(bonferroni(b, m - 2, m, 4));
    }
  }

  @Test
  void isAnUpperBoundNearTheSimulatedTailWhenTheErrorIsKnown() {
    int m = 25;
    double[] maxZ = simulate(m, 4, new Random(7), true);
    for (double b : new double[] {3.5, 3.9}) {
      double simulated = tail(maxZ, b);
      double p = MaxSplitT.p(b, 1e7, m, 4);
      assertThat(p).as("z %.1f", b).isBetween(0.9 * simulated, 1.3 * simulated);
      // Bonferroni over the 18 splits overstates it by half or more
      assertThat(bonferroni(b, 1e7, m, 4)).isGreaterThan(1.5 * simulated);
    }
  }

  @Test
  void oneSplitIsOneTest() {
    assertThat(MaxSplitT.p(3, 10, 8, 4)).isEqualTo(StudentT.twoSidedP(3, 10));
    assertThat(MaxSplitT.p(0.5, 10, 20, 4)).isEqualTo(1.0);
  }

  @Test
  void pairsOfNormalsAboveALevel() {
    // independent: the product of the single tails; correlated: the bivariate normal's upper orthant
    double single = 0.5 * org.apache.commons.math3.special.Erf.erfc(2 / Math.sqrt(2));
    assertThat(MaxSplitT.bothAbove(2, 0)).isCloseTo(single * single, org.assertj.core.data.Offset.offset(1e-6));
    assertThat(MaxSplitT.bothAbove(2, 0.5)).isCloseTo(4.05295e-3, org.assertj.core.data.Offset.offset(1e-6));
    assertThat(MaxSplitT.bothAbove(3.5, 0.9)).isCloseTo(9.0762e-5, org.assertj.core.data.Offset.offset(1e-7));
  }

  private static double bonferroni(double b, double df, int m, int minSide) {
    return (m - 2 * minSide + 1) * StudentT.twoSidedP(b, df);
  }

  private static double tail(double[] values, double b) {
    int over = 0;
    for (double v : values) {
      over += v >= b ? 1 : 0;
    }
    return (double) over / values.length;
  }

  /** The largest |t| over the splits of m standard normals (known: the error is 1, else the residual spread). */
  private static double[] simulate(int m, int minSide, Random random, boolean known) {
    double[] out = new double[DRAWS];
    double[] x = new double[m];
    for (int d = 0; d < DRAWS; d++) {
      double total = 0;
      double totalSq = 0;
      for (int i = 0; i < m; i++) {
        x[i] = random.nextGaussian();
        total += x[i];
        totalSq += x[i] * x[i];
      }
      double before = 0;
      double best = 0;
      for (int k = 1; k < m; k++) {
        before += x[k - 1];
        if (k < minSide || m - k < minSide) {
          continue;
        }
        double after = total - before;
        double z = (after / (m - k) - before / k) / Math.sqrt(1.0 / k + 1.0 / (m - k));
        double t = known ? z : z / Math.sqrt(Math.max(totalSq - total * total / m - z * z, 1e-300) / (m - 2));
        best = Math.max(best, Math.abs(t));
      }
      out[d] = best;
    }
    return out;
  }
}
