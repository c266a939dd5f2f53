package org.perftrack.server.detection;

import org.perftrack.server.stats.Robust;

/**
 * Between-session noise of one series, estimated from its own history: the spread of successive
 * version-to-version differences (robust, so one step or one bad session barely moves it), shrunk
 * towards a prior when the history is short. {@code df} is the degrees of freedom for Student t.
 */
record NoiseModel(double sigma, double df) {
  /** Weight of the prior, in pseudo-differences. */
  static final double PRIOR_WEIGHT = 4;
  /** Below this many versions successive differences say too little (and may hold the step itself). */
  static final int MIN_HISTORY = 5;
  /** Sessions rarely agree better than this, whatever the samples say. */
  static final double PRIOR_FLOOR = 0.005;
  /** The least noise (in log units, 0.01 %) any judgement assumes: a series that never moved must not divide by 0. */
  static final double SIGMA_FLOOR = 1e-4;
  /** Degrees of freedom once the history is used: its MIN_HISTORY − 1 differences plus the prior's. */
  static final double HISTORY_DF = MIN_HISTORY - 1 + PRIOR_WEIGHT - 1;

  static NoiseModel estimate(Levels levels) {
    int n = levels.size();
    double within = levels.pooledWithinSe();
    boolean oneValue = within == 0 && levels.withinDf() == 0;
    double prior = Math.max(PRIOR_FLOOR, 2 * within);
    if (n < MIN_HISTORY) {
      return oneValue ? new NoiseModel(ONE_VALUE_PRIOR, PRIOR_WEIGHT - 1)
          : new NoiseModel(Math.max(prior, SIGMA_FLOOR), priorOnlyDf(levels));
    }
    if (oneValue) {
      return fromHistoryAlone(levels);
    }
    double[] diffs = new double[n - 1];
    for (int i = 1; i < n; i++) {
      diffs[i - 1] = levels.x()[i] - levels.x()[i - 1];
    }
    double observed = Robust.madSd(diffs, 0, diffs.length) / Math.sqrt(2);
    int nu = n - 1;
    double variance = (nu * observed * observed + PRIOR_WEIGHT * prior * prior) / (nu + PRIOR_WEIGHT);
    double sigma = Math.max(Math.sqrt(variance), Math.max(within, SIGMA_FLOOR));
    return new NoiseModel(sigma, nu + PRIOR_WEIGHT - 1);
  }

  /**
   * A series of one value per version (a summary per build, a benchmark run once) has no within-run spread to
   * build a prior from: its noise is the spread between versions alone, with the degrees of freedom of its
   * differences. Before {@value #MIN_HISTORY} versions it is a generous guess, {@value #ONE_VALUE_PRIOR}, so that
   * only a change far beyond what single runs scatter is judged a step.
   */
  private static NoiseModel fromHistoryAlone(Levels levels) {
    int n = levels.size();
    double[] diffs = new double[n - 1];
    for (int i = 1; i < n; i++) {
      diffs[i - 1] = levels.x()[i] - levels.x()[i - 1];
    }
    double observed = Robust.madSd(diffs, 0, diffs.length) / Math.sqrt(2);
    return new NoiseModel(Math.max(observed, PRIOR_FLOOR), n - 2);
  }

  /** The noise of a one-value series before its history says more (log, about ±10 %). */
  static final double ONE_VALUE_PRIOR = 0.1;

  /**
   * Without usable history sigma is the prior alone, a fixed multiple of the within-session error: the
   * only estimated quantity in it is that error, whose uncertainty comes from the samples (Σ(nᵢ − 1)),
   * not from pseudo-differences that were never observed. Treating it as 3 df made even a ×19 step
   * with non-overlapping samples (t ≈ 13) insignificant. Capped at what the model has once history is
   * used, so that a further version never makes the test more lenient through the df alone; floored
   * at the prior's weight for versions without samples to judge by (one sample each, or unknown).
   */
  private static double priorOnlyDf(Levels levels) {
    return Math.max(PRIOR_WEIGHT - 1, Math.min(levels.withinDf(), HISTORY_DF));
  }
}
