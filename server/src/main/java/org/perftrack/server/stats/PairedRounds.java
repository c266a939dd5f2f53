package org.perftrack.server.stats;

import java.util.Arrays;

/**
 * Two versions measured interleaved in one session: sample r of each was taken in round r, so the
 * per-round log ratio cancels whatever slowed that whole round or that whole session (load, another
 * build, a cold cache). The estimate is the mean of the per-round log ratios after winsorizing
 * {@value #WINSOR} of each tail (one wild round in five cannot carry it); its standard error comes from
 * the plain spread of the rounds (winsorizing five values can make a two-mode benchmark look exact) and
 * is floored at {@value #MIN_SD} per round. {@code minRound} is the weakest round's log ratio in the
 * estimate's direction: every round shows at least that much.
 */
public record PairedRounds(double logRatio, double se, int rounds, double minRound) {
  /** Fraction of rounds winsorized at each end (one of five). */
  public static final double WINSOR = 0.2;
  /** Smallest standard deviation of one round's log ratio that is believed (1 %). */
  public static final double MIN_SD = 0.01;
  /** Fewer rounds than this give no usable spread. */
  public static final int MIN_ROUNDS = 3;

  /**
   * Compares {@code after} with {@code before} round by round (the first min(n, m) rounds); null when
   * there are fewer than {@value #MIN_ROUNDS} rounds or a sample is not positive.
   */
  public static PairedRounds of(double[] before, double[] after) {
    int n = Math.min(before.length, after.length);
    if (n < MIN_ROUNDS) {
      return null;
    }
    double[] d = new double[n];
    for (int r = 0; r < n; r++) {
      if (!(before[r] > 0) || !(after[r] > 0)) {
        return null;
      }
      d[r] = Math.log(after[r] / before[r]);
    }
    double mean = Arrays.stream(winsorize(d, WINSOR)).average().orElseThrow();
    double plain = Arrays.stream(d).average().orElseThrow();
    double ss = 0;
    double weakest = Double.MAX_VALUE;
    for (double v : d) {
      ss += (v - plain) * (v - plain);
      weakest = Math.min(weakest, v * Math.signum(mean));
    }
    double sd = Math.max(MIN_SD, Math.sqrt(ss / (n - 1)));
    return new PairedRounds(mean, sd / Math.sqrt(n), n, weakest);
  }

  /** Replaces the {@code fraction} lowest and highest values by the nearest remaining ones. */
  static double[] winsorize(double[] values, double fraction) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int g = (int) Math.floor(values.length * fraction);
    double lo = sorted[g];
    double hi = sorted[values.length - 1 - g];
    double[] out = new double[values.length];
    for (int i = 0; i < values.length; i++) {
      out[i] = Math.min(hi, Math.max(lo, values[i]));
    }
    return out;
  }

  /** Degrees of freedom of the estimate. */
  public int df() {
    return rounds - 1;
  }
}
