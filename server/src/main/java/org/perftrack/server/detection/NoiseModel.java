package org.perftrack.server.detection;

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

  static NoiseModel estimate(Levels levels) {
    int n = levels.size();
    double within = levels.pooledWithinSe();
    double prior = Math.max(PRIOR_FLOOR, 2 * within);
    double observed = 0;
    int nu = 0;
    if (n >= MIN_HISTORY) {
      double[] diffs = new double[n - 1];
      for (int i = 1; i < n; i++) {
        diffs[i - 1] = levels.x()[i] - levels.x()[i - 1];
      }
      observed = Robust.madSd(diffs, 0, diffs.length) / Math.sqrt(2);
      nu = n - 1;
    }
    double variance = (nu * observed * observed + PRIOR_WEIGHT * prior * prior) / (nu + PRIOR_WEIGHT);
    double sigma = Math.max(Math.sqrt(variance), Math.max(within, 1e-4));
    return new NoiseModel(sigma, nu + PRIOR_WEIGHT - 1);
  }
}
